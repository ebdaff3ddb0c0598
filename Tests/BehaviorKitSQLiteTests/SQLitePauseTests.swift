import BehaviorKitSQLite
import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// A pause on SQLite is kept in the file, for every process: another process's resume wakes
/// this one's workers through its watcher of the file (the worker's poll is on a manual clock
/// that never moves, so only the watcher can make it claim).
struct SQLitePauseTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func aResumeInAnotherProcessWakesTheWorkers() async throws {
        let path = folder.path("pause.journal")
        let workerJournal = try SQLiteCommandJournal(path: path)
        let other = try SQLiteCommandJournal(path: path)
        let marks = LockedValue<[String]>([])
        var registry = CommandRegistry()
        registry.register("pause.mark", arguments: String.self) { name in
            ClosureCommand("mark \(name)") { marks.withLock { $0.append(name) } }
        }
        let queue = CommandQueue("mail", journal: other)
        try await queue.pause()
        try await queue.enqueue(kind: "pause.mark", arguments: "held", key: "held")
        #expect(try await CommandQueue("mail", journal: workerJournal).isPaused())
        let clock = ManualClock()
        let worker = QueueWorker(
            CommandQueue("mail", journal: workerJournal),
            invoker: JournaledInvoker(journal: workerJournal, registry: registry, clock: clock),
            pollInterval: .seconds(3_600))
        let run = Task { await worker.run() }
        await clock.waitForSleepers(count: 1)
        #expect(marks.withLock { $0.isEmpty }, "the paused queue's job ran")
        try await queue.resume()
        var woken = false
        for _ in 0..<4_000 where !woken {
            woken = marks.withLock { $0.contains("held") }
            if !woken { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(woken, "the worker was not woken by the other process's resume: \(worker.statistics)")
        run.cancel()
        await run.value
        try await workerJournal.close()
        try await other.close()
    }
}
