import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Logging
import PostgresNIO
import Testing

@testable import BehaviorKitPostgres

/// A pause on PostgreSQL is kept in the database, for every process: another process's resume
/// wakes this one's workers by its `NOTIFY` (two journals on one table, each with its own pool,
/// stand for two processes; the worker's poll is on a manual clock that never moves).
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresPauseTests {
    @Test func aResumeInAnotherProcessWakesTheWorkers() async throws {
        let journals = try await OpenJournals("pause")
        let table = journals.newTable()
        let workerJournal = try await journals.open(table: table)
        let other = try await journals.open(table: table)
        let marks = LockedValue<[String]>([])
        var registry = CommandRegistry()
        registry.register("pause.mark", arguments: String.self) { name in
            ClosureCommand("mark \(name)") { marks.withLock { $0.append(name) } }
        }
        let queue = CommandQueue("mail", journal: other)
        try await queue.pause()
        try await queue.enqueue(kind: "pause.mark", arguments: "held", key: "held")
        let clock = ManualClock()
        let worker = QueueWorker(
            CommandQueue("mail", journal: workerJournal),
            invoker: JournaledInvoker(journal: workerJournal, registry: registry, clock: clock),
            pollInterval: .seconds(3_600))
        let run = Task { await worker.run() }
        do {
            #expect(try await CommandQueue("mail", journal: workerJournal).isPaused())
            try await withTimeLimit(.seconds(60)) { await clock.waitForSleepers(count: 1) }
            #expect(marks.withLock { $0.isEmpty }, "the paused queue's job ran")
            try await queue.resume()
            try await withTimeLimit(.seconds(60)) {
                while !marks.withLock({ $0.contains("held") }) { try await Task.sleep(for: .milliseconds(5)) }
            }
        } catch {
            Issue.record("\(error); marked \(marks.withLock { $0 }); worker \(worker.statistics)")
        }
        run.cancel()
        await run.value
        await journals.closeAll()
    }

    /// A claim under a rate limit checks the pause, then waits for the queue's lock while
    /// another claim holds it: a pause that commits during that wait still stops it (it looks
    /// again once it holds the lock), so "a claim under way" is one that holds the lock, not one
    /// that merely waits for it. Here a session of the test holds the lock.
    @Test func aClaimWaitingForTheQueuesLockWhenThePauseCommitsTakesNothing() async throws {
        let journals = try await OpenJournals("pauselock")
        let journal = try await journals.open()
        let queue = CommandQueue("mail", journal: journal)
        try await queue.setRateLimit(try QueueRateLimit(starts: 1_000, per: .seconds(1), burst: 1_000))
        try await queue.enqueue(kind: "pause.mark", arguments: "late", key: "late")
        let client = PostgresClient(
            configuration: .init(
                unixSocketPath: "\(journals.cluster.folder)/.s.PGSQL.\(journals.cluster.port)", username: "postgres",
                password: nil, database: journals.database))
        let running = Task { await client.run() }
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let lock = "pg_advisory_xact_lock(hashtext('behaviorkit.queue.\(journal.table)'), hashtext('mail'))"
        do {
            try await withTimeLimit(.seconds(60)) {
                try await client.withConnection { holder in
                    _ = try await holder.query("BEGIN", logger: logger)
                    _ = try await holder.query(PostgresQuery(unsafeSQL: "SELECT \(lock)"), logger: logger)
                    let claim = Task {
                        try await journal.claim(
                            1, from: "mail", concurrency: nil, lease: JournalLease(owner: "w", duration: .seconds(30)))
                    }
                    // Until the claim waits for the lock.
                    while true {
                        let rows = try await holder.query(
                            "SELECT count(*)::bigint FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
                            logger: logger)
                        var waiting: Int64 = 0
                        for try await count in rows.decode(Int64.self) { waiting = count }
                        if waiting > 0 { break }
                        try await Task.sleep(for: .milliseconds(5))
                    }
                    try await queue.pause()
                    _ = try await holder.query("COMMIT", logger: logger)
                    let taken = try await claim.value.records.map(\.id)
                    #expect(taken.isEmpty, "a claim that waited for the lock took \(taken) from the paused queue")
                }
            }
        } catch {
            Issue.record("\(error)")
        }
        running.cancel()
        _ = await running.value
        await journals.closeAll()
    }
}
