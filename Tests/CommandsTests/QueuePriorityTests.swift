import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// Priorities outside the stores: a record encoded before priorities decodes at the default. (Every
/// journal keeps priorities: the one enqueue requirement of `CommandJournal` carries one.)
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
}
