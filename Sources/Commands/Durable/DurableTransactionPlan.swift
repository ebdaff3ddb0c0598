#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a transaction that a stopped worker left half-done is settled by the worker that takes
/// it over.
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
