import BehaviorKitSync
import BehaviorKitTesting
import Commands
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
}
