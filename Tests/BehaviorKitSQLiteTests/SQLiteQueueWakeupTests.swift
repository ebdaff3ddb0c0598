import BehaviorKitSQLite
import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// Workers are woken across processes on SQLite: a journal whose worker listens watches its file
/// (`PRAGMA data_version`) and wakes its queues when another connection adds a record. Two
/// journals on one file, each with its own connections, stand for two processes; the worker's
/// poll is on a manual clock that never moves, so only the watcher can make it claim.
struct SQLiteQueueWakeupTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Waits, in 5 ms looks for at most 20 s, until `condition` holds; returns whether it did.
    func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<4_000 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    /// Where the system carries the news (Linux), another process's enqueue wakes the worker as
    /// it commits, not at the watcher's next poll: here that poll is an hour away.
    @Test(.enabled(if: SQLiteQueueWatcher.toldOfEnqueues, "no news of another process's enqueue here: polled"))
    func aWorkerIsWokenByAnotherProcessesNewsNotByAPoll() async throws {
        try await expectWoken(queue: "told", names: ["first", "second", "third"], watcherPolls: .seconds(3_600))
    }

    @Test func aWorkerIsWokenByAnotherProcessesEnqueue() async throws {
        try await expectWoken(queue: "wake", names: ["first", "second"], watcherPolls: nil)
    }

    /// A worker on one journal of a file claims each of `names`, enqueued one after another on
    /// `queue` by another journal of the file, while its own poll never comes; the watcher polls
    /// every `watcherPolls` (its own interval when `nil`).
    func expectWoken(queue: String, names: [String], watcherPolls: Duration?) async throws {
        let path = folder.path("\(queue).journal")
        let workerJournal = try SQLiteCommandJournal(path: path)
        workerJournal.watcher.pollInterval = watcherPolls
        let other = try SQLiteCommandJournal(path: path)
        let marks = LockedValue<[String]>([])
        var registry = CommandRegistry()
        registry.register("\(queue).mark", arguments: String.self) { name in
            ClosureCommand("mark \(name)") { marks.withLock { $0.append(name) } }
        }
        let clock = ManualClock()
        let worker = QueueWorker(
            CommandQueue(queue, journal: workerJournal),
            invoker: JournaledInvoker(journal: workerJournal, registry: registry, clock: clock),
            pollInterval: .seconds(3_600))
        let run = Task { await worker.run() }
        await clock.waitForSleepers(count: 1)
        // The watcher's first look (at once) is over before the enqueues: it does not claim them.
        try await Task.sleep(for: .milliseconds(50))
        for name in names {
            try await CommandQueue(queue, journal: other).enqueue(kind: "\(queue).mark", arguments: name, key: name)
            #expect(
                try await eventually { marks.withLock { $0.contains(name) } },
                "the worker did not claim \(name): \(worker.statistics)")
        }
        run.cancel()
        await run.value
        try await workerJournal.close()
        try await other.close()
    }

    /// A record another process committed before the watcher first looked at its queue is in
    /// the number that first look reads, so no later change tells of it: the first look wakes
    /// the queue's workers once all the same (a worker that had just claimed would otherwise
    /// leave it to its poll).
    @Test func aRecordCommittedBeforeTheWatchersFirstLookWakesTheWorkers() async throws {
        let path = folder.path("first-look.journal")
        let workerJournal = try SQLiteCommandJournal(path: path)
        let other = try SQLiteCommandJournal(path: path)
        try await CommandQueue("wake", journal: other).enqueue(kind: "wake.mark", arguments: "early", key: "early")
        let woken = LockedValue(false)
        let wakeups = workerJournal.wakeups(of: "wake")
        let listening = Task {
            for await _ in wakeups {
                woken.withLock { $0 = true }
                break
            }
        }
        #expect(try await eventually { woken.withLock { $0 } }, "the first look did not wake the queue")
        listening.cancel()
        try await workerJournal.close()
        try await other.close()
        await listening.value
    }

    @Test func closingAJournalStopsItsWatcherAndEndsItsWakeups() async throws {
        let journal = try SQLiteCommandJournal(path: folder.path("close.journal"))
        let wakeups = journal.wakeups(of: "q")
        try await journal.close()
        var iterator = wakeups.makeAsyncIterator()
        #expect(await iterator.next() == nil, "the stream ended with the journal")
    }
}
