import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// Priorities outside the stores: a record encoded before priorities decodes at the default, and
/// a journal that keeps no priorities refuses one rather than drop it.
struct QueuePriorityTests {
    @Test func aRecordEncodedBeforePrioritiesDecodesAtTheDefault() throws {
        let record = CommandJournalRecord(
            sequence: 3, entry: CommandJournalEntry(idempotencyKey: "k", kind: "test"), status: .pending, queue: "q",
            priority: 5)
        let encoded = try JSONEncoder().encode(record)
        #expect(try JSONDecoder().decode(CommandJournalRecord.self, from: encoded) == record)
        var fields = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        fields["priority"] = nil
        let earlier = try JSONSerialization.data(withJSONObject: fields)
        let decoded = try JSONDecoder().decode(CommandJournalRecord.self, from: earlier)
        #expect(decoded.priority == CommandQueue.defaultPriority)
        #expect(decoded.id == "k" && decoded.queue == "q" && decoded.sequence == 3)
    }

    /// A journal of its own that implements only the enqueue without a priority.
    final class NoPriorities: CommandJournal {
        let base = InMemoryCommandJournal()
        func begin(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalBegin {
            try await base.begin(entry, lease: lease)
        }
        func append(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalRecord {
            try await base.append(entry, lease: lease)
        }
        func settle(_ key: String, as settlement: CommandJournalSettlement, lease: JournalLease) async throws {
            try await base.settle(key, as: settlement, lease: lease)
        }
        func renew(_ attempts: [String: Int], lease: JournalLease) async throws -> [String] {
            try await base.renew(attempts, lease: lease)
        }
        func release(_ key: String, lease: JournalLease, after delay: Duration) async throws {
            try await base.release(key, lease: lease, after: delay)
        }
        func claim(
            _ limit: Int, from queue: String?, concurrency: Int?, takingOverFrom deadOwner: String?,
            lease: JournalLease
        ) async throws -> CommandJournalClaim {
            try await base.claim(limit, from: queue, concurrency: concurrency, takingOverFrom: deadOwner, lease: lease)
        }
        func enqueue(
            _ entry: CommandJournalEntry, queue: String, after delay: Duration
        ) async throws -> CommandJournalRecord {
            try await base.enqueue(entry, queue: queue, after: delay)
        }
        func prune(settledBefore date: Date) async throws -> Int { try await base.prune(settledBefore: date) }
        func record(forKey key: String) async throws -> CommandJournalRecord? { try await base.record(forKey: key) }
        func unfinished() async throws -> [CommandJournalRecord] { try await base.unfinished() }
        func records(parentKey: String) async throws -> [CommandJournalRecord] {
            try await base.records(parentKey: parentKey)
        }
        func allRecords() async throws -> [CommandJournalRecord] { try await base.allRecords() }
    }

    @Test func aJournalWithoutPrioritiesRefusesOneRatherThanDropIt() async throws {
        let queue = CommandQueue("q", journal: NoPriorities())
        let plain = try await queue.enqueue(CommandJournalEntry(idempotencyKey: "plain", kind: "test"))
        #expect(plain.priority == CommandQueue.defaultPriority)
        await #expect(throws: CommandJournalError.self) {
            try await queue.enqueue(CommandJournalEntry(idempotencyKey: "urgent", kind: "test"), priority: 1)
        }
        #expect(try await queue.journal.record(forKey: "urgent") == nil)
    }
}
