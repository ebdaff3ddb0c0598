import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

struct JournalTests {
    @Test func inMemoryJournalConforms() async throws {
        try await CommandJournalConformance.check { clock in InMemoryCommandJournal(clock: clock) }
    }

    @Test func inMemoryJournalSharesRateLimitsAcrossItsCallers() async throws {
        try await CommandJournalConformance.checkSharedRateLimits { clock in
            let journal = InMemoryCommandJournal(clock: clock)
            return (journal, journal)
        }
    }

    @Test func aBrokenJournalFailsTheConformanceCheck() async throws {
        /// Forgets every settlement: its records stay pending.
        final class ForgetfulJournal: ForwardingCommandJournal, @unchecked Sendable {
            init(clock: ManualClock) { super.init(InMemoryCommandJournal(clock: clock)) }
            override func settle(
                _ key: String, as settlement: CommandJournalSettlement, lease: JournalLease
            ) async throws {}
            override func settle(_ changes: [CommandJournalChange], lease: JournalLease) async throws {}
        }
        await #expect {
            try await CommandJournalConformance.check { clock in ForgetfulJournal(clock: clock) }
        } throws: { error in
            (error as? CommandJournalConformanceFailure)?.check
                == "settle finishes records: done with an output, failed with a reason, compensated"
        }
    }

    @Test func unfinishedRecordsAreWhatAStoppedWorkerLeft() async throws {
        let journal = InMemoryCommandJournal()
        let cart = TestCart()
        let invoker = JournaledInvoker(journal: journal)
        _ = try await invoker.run(
            AddGoods(cart: cart, item: "apple", count: 2), as: .init(idempotencyKey: "1", kind: "add"))
        let lease = JournalLease(owner: "stopped", duration: .seconds(30))
        _ = try await journal.begin(
            .init(idempotencyKey: "2", kind: "add", payload: Array("pear 1".utf8)), lease: lease)
        // The worker "stops" here: record 2 was written down but never settled.
        let unfinished = try await journal.unfinished()
        #expect(unfinished.map(\.entry.idempotencyKey) == ["2"])
        #expect(unfinished.first?.owner == "stopped")
        #expect(journal.records.map(\.status) == [.done, .pending])
        #expect(journal.records.first?.owner == invoker.owner)
    }

    @Test func recordsRoundTripThroughJSON() throws {
        let record = CommandJournalRecord(
            sequence: 7, entry: .init(idempotencyKey: "order-1", kind: "bank.charge", payload: [1, 2, 3]),
            status: .failed, failureReason: "declined", output: [4], owner: "w", leaseExpiresAt: Date(),
            queue: "payments", attempts: 2, createdAt: Date(timeIntervalSince1970: 10))
        let data = try JSONEncoder().encode(record)
        #expect(try JSONDecoder().decode(CommandJournalRecord.self, from: data) == record)
        #expect(record.id == "order-1")
    }

    @Test func errorsNameTheKey() {
        #expect(CommandJournalError.unknownKey("k").description == "no journal record has the idempotency key 'k'")
        #expect(
            CommandJournalError.conflictingEntry(key: "k").description
                == "the idempotency key 'k' is already used by a different command")
        #expect(
            CommandJournalError.alreadySettled(key: "k", status: .compensated, reason: "declined").description
                == "the idempotency key 'k' already settled as compensated (declined); it is not run again")
        #expect(
            CommandJournalError.busy(key: "k", owner: "w1").description
                == "the idempotency key 'k' is being run by worker 'w1'; it is not run twice at once")
        #expect(
            CommandJournalError.leaseLost(key: "k", owner: "w2").description
                == "this worker no longer holds 'k': worker 'w2' took it over; the work stopped here")
    }
}
