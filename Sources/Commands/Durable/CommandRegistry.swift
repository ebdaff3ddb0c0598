#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The command types a journal's records can be turned back into: a map from a record's kind
/// to a decoder. Recovery uses it to replay or compensate what a crash left unfinished.
///
/// ```swift
/// var registry = CommandRegistry()
/// registry.register(Charge.self)                                   // a Codable command
/// registry.register("garage.save", arguments: Vehicle.self) { Garage.saveToDB($0, database) }
/// let entry = try registry.entry(Charge(order: 42, cents: 990), key: "order-42/charge")
/// let command = try registry.command(for: entry)                  // a Charge again
/// ```
///
/// Payloads are JSON with sorted keys, so that the same arguments give the same bytes (and the
/// same key appended twice is recognised as the same command).
public struct CommandRegistry: Sendable {
    private var decoders: [String: @Sendable ([UInt8]) throws -> any Command] = [:]

    /// Creates an empty registry.
    public init() {}

    /// The registered kinds, sorted.
    public var kinds: [String] { decoders.keys.sorted() }

    /// Registers `type` under its ``JournaledCommand/journalKind``; a later registration of the
    /// same kind replaces it.
    public mutating func register<C: JournaledCommand>(_ type: C.Type) {
        decoders[C.journalKind] = { bytes in try JSONDecoder().decode(C.self, from: Data(bytes)) }
    }

    /// Registers `kind` as `Arguments` decoded from the payload and turned into a command by
    /// `make` (which can capture receivers that are not `Codable`).
    public mutating func register<Arguments: Decodable & SendableMetatype>(
        _ kind: String, arguments: Arguments.Type, make: @escaping @Sendable (Arguments) -> any Command
    ) {
        decoders[kind] = { bytes in make(try JSONDecoder().decode(Arguments.self, from: Data(bytes))) }
    }

    /// The command that `entry` records.
    ///
    /// - Throws: ``CommandRegistryError`` naming the kind and key when the kind is not
    ///   registered or its payload does not decode.
    public func command(for entry: CommandJournalEntry) throws(CommandRegistryError) -> any Command {
        guard let decode = decoders[entry.kind] else {
            throw .unregisteredKind(entry.kind, key: entry.idempotencyKey)
        }
        do {
            return try decode(entry.payload)
        } catch {
            throw .undecodablePayload(kind: entry.kind, key: entry.idempotencyKey, reason: "\(error)")
        }
    }

    /// An entry recording `command` under `key` (and, for a transaction's step, `parentKey`).
    public func entry<C: JournaledCommand>(
        _ command: C, key: String, parentKey: String? = nil
    ) throws(CommandRegistryError) -> CommandJournalEntry {
        try Self.entry(kind: C.journalKind, arguments: command, key: key, parentKey: parentKey)
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

/// Why a ``CommandRegistry`` could not turn a record into a command, or a command into a record.
public enum CommandRegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No command type is registered under the kind.
    case unregisteredKind(String, key: String)
    /// The payload does not decode as the registered type.
    case undecodablePayload(kind: String, key: String, reason: String)
    /// The arguments could not be encoded.
    case unencodableArguments(kind: String, key: String, reason: String)

    /// The idempotency key of the record concerned.
    public var key: String {
        switch self {
        case .unregisteredKind(_, let key), .undecodablePayload(_, let key, _), .unencodableArguments(_, let key, _):
            key
        }
    }

    /// Names the kind, the key and the problem.
    public var description: String {
        switch self {
        case .unregisteredKind(let kind, let key):
            "record '\(key)': the command type '\(kind)' is not registered; the record is kept"
        case .undecodablePayload(let kind, let key, let reason):
            "record '\(key)': its payload does not decode as '\(kind)' (\(reason)); the record is kept"
        case .unencodableArguments(let kind, let key, let reason):
            "record '\(key)': cannot encode the arguments of '\(kind)' (\(reason))"
        }
    }
}
