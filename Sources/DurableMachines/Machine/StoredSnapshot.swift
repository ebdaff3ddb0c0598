import StateMachines

/// An instance's snapshot as the store keeps it: the snapshot's own fields, and beside them the
/// version of the definition the instance runs (`definitionVersion`), written only when it is
/// not 1 — so the instances of a machine that never versioned its definition are stored as
/// before, and a snapshot stored without it runs version 1.
struct StoredSnapshot<State: Hashable & Sendable & Codable, Context: Sendable & Codable>: Codable {
    var snapshot: MachineSnapshot<State, Context>
    var definitionVersion: Int

    private enum CodingKeys: String, CodingKey { case definitionVersion }

    init(_ snapshot: MachineSnapshot<State, Context>, definitionVersion: Int) {
        self.snapshot = snapshot
        self.definitionVersion = definitionVersion
    }

    init(from decoder: any Decoder) throws {
        snapshot = try MachineSnapshot(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        definitionVersion = try container.decodeIfPresent(Int.self, forKey: .definitionVersion) ?? 1
    }

    func encode(to encoder: any Encoder) throws {
        try snapshot.encode(to: encoder)
        guard definitionVersion != 1 else { return }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(definitionVersion, forKey: .definitionVersion)
    }

    /// The version a stored snapshot names, read alone (1 when it names none, or is unreadable).
    static func version(in bytes: [UInt8]) -> Int {
        (try? JSONDecoder().decode(DefinitionVersionTag.self, from: Data(bytes)))?.definitionVersion ?? 1
    }
}

/// The definition version a stored snapshot names, alone.
private struct DefinitionVersionTag: Decodable {
    var definitionVersion: Int?
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
