#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The command and step types a journal's records can be turned back into: a map from a
/// record's kind to a decoder. Recovery and queue workers use it to run, replay or compensate
/// what the journal holds.
///
/// ```swift
/// var registry = CommandRegistry()
/// registry.register(Charge.self)                                   // a JournaledCommand or JournaledStep
/// registry.register("garage.save", arguments: Vehicle.self) { Garage.saveToDB($0, database) }
/// let entry = try registry.entry(Charge(order: 42, cents: 990), key: "order-42/charge")
/// let command = try registry.command(for: entry)                  // a Charge again
/// ```
///
/// Payloads are JSON with sorted keys, so that the same arguments give the same bytes (and the
/// same key written twice is recognised as the same command).
public struct CommandRegistry: Sendable {
    var decoders: [String: @Sendable ([UInt8]) throws -> DurableStep] = [:]
    var retryPolicies: [String: RetryPolicy] = [:]

    /// Creates an empty registry.
    public init() {}

    /// The registered kinds, sorted.
    public var kinds: [String] { decoders.keys.sorted() }

    /// Registers `type` under its ``Journaled/journalKind``; a later registration of the
    /// same kind replaces it.
    public mutating func register<C: JournaledCommand>(_ type: C.Type) {
        decoders[C.journalKind] = { bytes in
            DurableStep(
                kind: C.journalKind, payload: bytes, command: try JSONDecoder().decode(C.self, from: Data(bytes)))
        }
    }

    /// Registers `type`, a step with an output, under its ``Journaled/journalKind``.
    public mutating func register<S: JournaledStep>(_ type: S.Type) {
        decoders[S.journalKind] = { bytes in
            DurableStep(try JSONDecoder().decode(S.self, from: Data(bytes)), payload: bytes)
        }
    }

    /// Registers `kind` as `Arguments` decoded from the payload and turned into a command by
    /// `make` (which can capture receivers that are not `Codable`).
    public mutating func register<Arguments: Decodable & SendableMetatype>(
        _ kind: String, arguments: Arguments.Type, make: @escaping @Sendable (Arguments) -> any Command
    ) {
        decoders[kind] = { bytes in
            DurableStep(
                kind: kind, payload: bytes, command: make(try JSONDecoder().decode(Arguments.self, from: Data(bytes))))
        }
    }

    /// The command that `entry` records.
    ///
    /// - Throws: ``CommandRegistryError`` naming the kind and key when the kind is not
    ///   registered or its payload does not decode.
    public func command(for entry: CommandJournalEntry) throws(CommandRegistryError) -> any Command {
        try step(for: entry).command
    }

    /// The step (or command) that `entry` records, with its output and compensation.
    ///
    /// - Throws: ``CommandRegistryError`` naming the kind and key.
    public func step(for entry: CommandJournalEntry) throws(CommandRegistryError) -> DurableStep {
        guard let decode = decoders[entry.kind] else {
            throw .unregisteredKind(entry.kind, key: entry.idempotencyKey)
        }
        do {
            var step = try decode(entry.payload)
            if let policy = retryPolicies[entry.kind] { step.retryPolicy = policy }
            return step
        } catch {
            throw .undecodablePayload(kind: entry.kind, key: entry.idempotencyKey, reason: "\(error)")
        }
    }

    /// An entry recording `command` (a ``JournaledCommand`` or a ``JournaledStep``) under `key`
    /// (and, for a transaction's step, `parentKey`).
    public func entry<J: Journaled>(
        _ command: J, key: String, parentKey: String? = nil
    ) throws(CommandRegistryError) -> CommandJournalEntry {
        try Self.entry(kind: J.journalKind, arguments: command, key: key, parentKey: parentKey)
    }

    /// An entry of `kind` whose payload is `arguments` encoded, under `key`.
    public static func entry(
        kind: String, arguments: some Encodable, key: String, parentKey: String? = nil
    ) throws(CommandRegistryError) -> CommandJournalEntry {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            let payload = try encoder.encode(arguments)
            return CommandJournalEntry(idempotencyKey: key, kind: kind, payload: Array(payload), parentKey: parentKey)
        } catch {
            throw .unencodableArguments(kind: kind, key: key, reason: "\(error)")
        }
    }
}
