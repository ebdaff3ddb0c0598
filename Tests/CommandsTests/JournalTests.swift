import BehaviorKitTesting
import Commands
import Foundation
import Testing

struct JournalTests {
    @Test func inMemoryJournalConforms() async throws {
        try await CommandJournalConformance.check { InMemoryCommandJournal() }
    }

    @Test func aBrokenJournalFailsTheConformanceCheck() async throws {
        /// Forgets every mark: its records stay pending.
        final class ForgetfulJournal: CommandJournal {
            let base = InMemoryCommandJournal()
            func append(_ entry: CommandJournalEntry) async throws -> CommandJournalRecord {
                try await base.append(entry)
            }
            func markDone(_ key: String) async throws {}
            func markFailed(_ key: String, reason: String) async throws {}
            func record(forKey key: String) async throws -> CommandJournalRecord? { try await base.record(forKey: key) }
            func unfinished() async throws -> [CommandJournalRecord] { try await base.unfinished() }
        }
        await #expect {
            try await CommandJournalConformance.check { ForgetfulJournal() }
        } throws: { error in
            (error as? CommandJournalConformanceFailure)?.check == "markDone and markFailed finish records"
        }
    }

    @Test func unfinishedRecordsAreWhatACrashLeft() async throws {
        let journal = InMemoryCommandJournal()
        let cart = TestCart()
        _ = try await journal.run(
            AddGoods(cart: cart, item: "apple", count: 2), as: .init(idempotencyKey: "1", kind: "add"))
        _ = try await journal.append(.init(idempotencyKey: "2", kind: "add", payload: Array("pear 1".utf8)))
        // The process "crashes" here: record 2 was written down but never marked.
        let unfinished = try await journal.unfinished()
        #expect(unfinished.map(\.entry.idempotencyKey) == ["2"])
        #expect(journal.records.map(\.status) == [.done, .pending])
    }

    @Test func recordsRoundTripThroughJSON() throws {
        let record = CommandJournalRecord(
            sequence: 7, entry: .init(idempotencyKey: "order-1", kind: "bank.charge", payload: [1, 2, 3]),
            status: .failed,
            failureReason: "declined")
        let data = try JSONEncoder().encode(record)
        #expect(try JSONDecoder().decode(CommandJournalRecord.self, from: data) == record)
        #expect(record.id == "order-1")
    }

    @Test func errorsNameTheKey() {
        #expect(CommandJournalError.unknownKey("k").description == "no journal record has the idempotency key 'k'")
        #expect(
            CommandJournalError.conflictingEntry(key: "k").description
                == "the idempotency key 'k' is already used by a different command")
    }
}
