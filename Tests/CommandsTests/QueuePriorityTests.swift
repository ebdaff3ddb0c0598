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

    @Test func aJournalWithoutPrioritiesRefusesOneRatherThanDropIt() async throws {
        // LeaseTests' ScriptedJournal forwards every write but the one with a priority, as a
        // journal written before priorities does.
        let queue = CommandQueue("q", journal: ScriptedJournal(InMemoryCommandJournal(), clock: ManualClock()))
        let plain = try await queue.enqueue(CommandJournalEntry(idempotencyKey: "plain", kind: "test"))
        #expect(plain.priority == CommandQueue.defaultPriority)
        await #expect(throws: CommandJournalError.self) {
            try await queue.enqueue(CommandJournalEntry(idempotencyKey: "urgent", kind: "test"), priority: 1)
        }
        #expect(try await queue.journal.record(forKey: "urgent") == nil)
    }
}
