import BehaviorKitSQLite
import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// A job's handle on SQLite is woken when another process settles the job: two journals on one
/// file, each with its own connections, stand for two processes; the handle's poll is on a
/// manual clock that never moves, so only its journal's watcher (`PRAGMA data_version`) can
/// wake it.
struct SQLiteJobHandleTests {
    let folder: TemporaryFolder
    let lease = JournalLease(owner: "other-process", duration: .seconds(30))

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func aHandleIsWokenWhenAnotherProcessSettlesTheJob() async throws {
        let path = folder.path("jobs.journal")
        let waiter = try SQLiteCommandJournal(path: path)
        let other = try SQLiteCommandJournal(path: path)
        let entry = CommandJournalEntry(idempotencyKey: "order-42", kind: "charge", payload: [])
        _ = try await CommandQueue("payments", journal: waiter).enqueue(entry)
        let clock = ManualClock()
        let handle = CommandQueue("payments", journal: waiter).job(
            forKey: "order-42", pollInterval: .seconds(3_600), clock: clock)
        let waiting = Task { try await handle.result() }
        await clock.waitForSleepers(count: 1)
        let claimed = try await other.claim(1, from: "payments", concurrency: nil, lease: lease)
        let record = try #require(claimed.records.first)
        try await other.settle("order-42", as: .failed(reason: "card declined"), lease: lease.fenced(by: record))
        await #expect(throws: JobError.failed(key: "order-42", reason: "card declined")) {
            try await waiting.value
        }
        try await waiter.close()
        try await other.close()
    }
}
