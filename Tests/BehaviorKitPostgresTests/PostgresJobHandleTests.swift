import BehaviorKitTesting
import Commands
import Testing

@testable import BehaviorKitPostgres

/// A job's handle on PostgreSQL is woken when another process settles the job: two journals on
/// one table, each with its own pool, stand for two processes; the handle's poll is on a manual
/// clock that never moves, so only its journal's watch of the records waited on can wake it.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresJobHandleTests {
    let lease = JournalLease(owner: "other-process", duration: .seconds(30))

    @Test func aHandleIsWokenWhenAnotherProcessSettlesTheJob() async throws {
        let journals = try await OpenJournals("jobhandle")
        let table = journals.newTable()
        let waiter = try await journals.open(table: table)
        let other = try await journals.open(table: table)
        let entry = CommandJournalEntry(idempotencyKey: "order-42", kind: "charge", payload: [])
        _ = try await CommandQueue("payments", journal: waiter).enqueue(entry)
        let clock = ManualClock()
        let handle = CommandQueue("payments", journal: waiter).job(
            forKey: "order-42", pollInterval: .seconds(3_600), clock: clock)
        let waiting = Task { try await handle.result(as: String.self) }
        do {
            try await withTimeLimit(.seconds(60)) { await clock.waitForSleepers(count: 1) }
            let claimed = try await other.claim(1, from: "payments", concurrency: nil, lease: lease)
            let record = try #require(claimed.records.first)
            try await other.settle(
                "order-42", as: .done(output: Array("\"paid\"".utf8)), lease: lease.fenced(by: record))
            let paid = try await withTimeLimit(.seconds(60)) { try await waiting.value }
            #expect(paid == "paid")
        } catch {
            Issue.record("\(error)")
        }
        waiting.cancel()
        await journals.closeAll()
    }
}
