import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

struct JournalTests {
    @Test func inMemoryJournalConforms() async throws {
        try await CommandJournalConformance.check { clock in InMemoryCommandJournal(clock: clock) }
    }

    @Test func aBrokenJournalFailsTheConformanceCheck() async throws {
        /// Forgets every settlement: its records stay pending.
        final class ForgetfulJournal: CommandJournal {
            let base: InMemoryCommandJournal
            init(clock: ManualClock) { base = InMemoryCommandJournal(clock: clock) }
            func begin(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalBegin {
                try await base.begin(entry, lease: lease)
            }
            func append(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalRecord {
                try await base.append(entry, lease: lease)
            }
            func settle(_ key: String, as settlement: CommandJournalSettlement, lease: JournalLease) async throws {}
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
                try await base.claim(
                    limit, from: queue, concurrency: concurrency, takingOverFrom: deadOwner, lease: lease)
            }
            func enqueue(
                _ entry: CommandJournalEntry, queue: String, after delay: Duration
            ) async throws
                -> CommandJournalRecord
            {
                try await base.enqueue(entry, queue: queue, after: delay)
            }
            func prune(
                settledBefore date: Date, statuses: Set<CommandJournalStatus>, queue: String?, limit: Int?
            ) async throws -> Int {
                try await base.prune(settledBefore: date, statuses: statuses, queue: queue, limit: limit)
            }
            func retry(
                matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
            ) async throws
                -> JournalBulkResult
            { try await base.retry(matching: filter, after: cursor, limit: limit) }
            func cancel(
                matching filter: CommandJournalFilter, reason: String, after cursor: Int64?, limit: Int
            ) async throws -> JournalBulkResult {
                try await base.cancel(matching: filter, reason: reason, after: cursor, limit: limit)
            }
            func record(forKey key: String) async throws -> CommandJournalRecord? { try await base.record(forKey: key) }
            func unfinished() async throws -> [CommandJournalRecord] { try await base.unfinished() }
            func records(parentKey: String) async throws -> [CommandJournalRecord] {
                try await base.records(parentKey: parentKey)
            }
            func allRecords() async throws -> [CommandJournalRecord] { try await base.allRecords() }
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
