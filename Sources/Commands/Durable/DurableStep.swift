#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A step of a ``DurableTransaction``: the command to run, and how the journal records it so
/// that recovery can bring it back through a ``CommandRegistry``.
///
/// ```swift
/// let steps = [
///     try DurableStep(Reserve(order: 42)),                                  // a JournaledCommand
///     try DurableStep("garage.save", arguments: vehicle, command: Garage.saveToDB(vehicle, db)),
/// ]
/// ```
public struct DurableStep: Sendable {
    /// The kind the registry decodes the step with.
    public let kind: String
    /// The step's arguments, encoded.
    public let payload: [UInt8]
    /// The command run now.
    public let command: any Command

    /// A step of `command`, recorded under its ``JournaledCommand/journalKind``.
    public init<C: JournaledCommand>(_ command: C) throws(CommandRegistryError) {
        let entry = try CommandRegistry.entry(kind: C.journalKind, arguments: command, key: command.name)
        self.init(kind: entry.kind, payload: entry.payload, command: command)
    }

    /// A step of `command`, recorded as `kind` with `arguments` (registered with
    /// ``CommandRegistry/register(_:arguments:make:)``).
    public init(_ kind: String, arguments: some Encodable, command: any Command) throws(CommandRegistryError) {
        let entry = try CommandRegistry.entry(kind: kind, arguments: arguments, key: command.name)
        self.init(kind: kind, payload: entry.payload, command: command)
    }

    init(kind: String, payload: [UInt8], command: any Command) {
        self.kind = kind
        self.payload = payload
        self.command = command
    }
}

/// How a transaction that a crash left half-done is settled on start.
public enum DurableTransactionRecovery: String, Codable, Sendable, Hashable {
    /// Undo the steps that ran, in reverse (the default): all or nothing, nothing.
    case compensate
    /// Run the steps that did not finish, then finish; if one fails, compensate after all.
    case complete
}

/// What a ``DurableTransaction`` records as its own payload: enough to rebuild it after a crash.
struct DurableTransactionPlan: Codable, Sendable {
    struct Step: Codable, Sendable {
        var kind: String
        var name: String
        var payload: [UInt8]
    }

    var name: String
    var recovery: DurableTransactionRecovery
    var steps: [Step]
}

extension DurableTransactionPlan {
    /// The plan a transaction's record holds.
    init(_ entry: CommandJournalEntry) throws(CommandRegistryError) {
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(entry.payload))
        } catch {
            throw .undecodablePayload(kind: entry.kind, key: entry.idempotencyKey, reason: "\(error)")
        }
    }
}
