import BehaviorKitSync
import Commands
import Foundation
import GRDB
import Logging

/// Wakes this process's queue workers when another process enqueues into the journal's file.
/// SQLite tells no other connection of a commit, so while a worker listens (from the first
/// ``SQLiteCommandJournal/wakeups(of:)``), a connection of the watcher's own reads
/// `PRAGMA data_version` — a number that changes when another connection committed — and, when
/// it changed, the newest record of each queue waited on (an index lookup): a new one wakes that
/// queue's workers; so does a queue's resume (its row gone from the paused queues). The first
/// look at a queue that has records wakes its workers once, since a record committed just
/// before that look would otherwise wait for their poll.
///
/// It looks every ``defaultInterval``, and at once (at most once every ``spacing``) when another
/// process's journal tells of a commit that enqueued or resumed a queue, where the system
/// carries that news (Linux: ``SQLiteFileChanges``).
///
/// While a caller waits on a record (``SQLiteCommandJournal/settlements(of:)``), each change of
/// the number wakes those waiters too: they read their records, which another process may
/// have settled.
///
/// A read every few milliseconds, and at each news, is the cost. A record made claimable without
/// a new row (a retry, a release, a lease that ended) is found by the workers' poll, as before.
package final class SQLiteQueueWatcher: Sendable {
    private let task = WatcherTask()
    private let path: String
    private let signal: QueueSignal
    private let settled: QueueSignal
    private let logger: Logger?
    private let polls = LockedValue<Duration?>(nil)

    /// How often the watcher looks at the file.
    static let defaultInterval: Duration = .milliseconds(5)
    /// The least time between two looks, however often other processes tell of enqueues.
    static let spacing: Duration = .milliseconds(1)

    /// How often it looks, in place of ``defaultInterval``: a test sets an hour to see that
    /// another process's enqueue alone wakes the workers. Set before the watch starts.
    package var pollInterval: Duration? {
        get { polls.withLock { $0 } }
        set { polls.withLock { $0 = newValue } }
    }

    /// Whether this platform carries the news of another process's enqueue (Linux).
    package static var toldOfEnqueues: Bool {
        #if os(Linux)
        true
        #else
        false
        #endif
    }

    init(path: String, signal: QueueSignal, settled: QueueSignal, logger: Logger?) {
        self.path = path
        self.signal = signal
        self.settled = settled
        self.logger = logger
    }

    deinit {
        task.cancel()
    }

    /// Starts watching, once; nothing after ``stop()``, nor for a journal with no file.
    func start() {
        let interval = pollInterval ?? Self.defaultInterval
        task.start { [path, signal, settled, logger] in
            await Self.watch(path: path, signal: signal, settled: settled, interval: interval, logger: logger)
        }
    }

    /// Stops watching and closes the watcher's connection.
    func stop() async {
        await task.stop()
    }

    private static func watch(
        path: String, signal: QueueSignal, settled: QueueSignal, interval: Duration, logger: Logger?
    ) async {
        guard FileManager.default.fileExists(atPath: path) else { return }
        let connection: DatabaseQueue
        do {
            connection = try DatabaseQueue(
                path: path, configuration: JournalFileContents.readOnly(busyTimeout: .milliseconds(100)))
        } catch {
            logger?.warning(
                "cannot watch the journal for other processes' enqueues; workers find them by polling",
                metadata: ["error": "\(error)"])
            return
        }
        let files = SQLiteFileChanges.watch(path: path)
        let clock = ElapsedClock(ContinuousClock())
        var version: Int?
        var newest: [String: Int64] = [:]
        var paused: Set<String> = []
        while !Task.isCancelled {
            // Taken before the look, so that news during it brings the next look at once.
            let generation = files?.enqueues.generation ?? 0
            let looked = clock.now
            do {
                let queues = signal.queues
                // A queue first waited on now has no newest record yet: read them all.
                let known = queues.isSubset(of: newest.keys) ? version : nil
                let seen = try await connection.read { db -> (Int, [String: Int64]?, Set<String>?) in
                    let now = try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
                    guard now != known else { return (now, nil, nil) }
                    var newest: [String: Int64] = [:]
                    for queue in queues {
                        newest[queue] =
                            try Int64.fetchOne(
                                db, sql: "SELECT max(sequence) FROM commandRecord WHERE queue = ?", arguments: [queue])
                            ?? 0
                    }
                    return (now, newest, try CommandJournalSchema.pausedQueues(db))
                }
                // Another connection committed: a record waited on may have settled.
                if version != seen.0 { settled.signal(nil) }
                version = seen.0
                // A queue resumed in another process: its workers claim again at once.
                if let now = seen.2 {
                    for queue in paused.subtracting(now) where queues.contains(queue) { signal.signal(queue) }
                    paused = now
                }
                for (queue, sequence) in seen.1 ?? [:] {
                    if let before = newest[queue] {
                        if sequence > before { signal.signal(queue) }
                    } else if sequence > 0 {
                        // The first look at a queue: a record committed between the worker's last
                        // claim and this look is in the number just read, so no later change would
                        // tell of it. Its workers look once more now.
                        signal.signal(queue)
                    }
                    newest[queue] = sequence
                }
            } catch is CancellationError {
                break
            } catch {
                logger?.debug("watching the journal for enqueues failed once", metadata: ["error": "\(error)"])
            }
            if let files {
                await files.enqueues.wait(after: generation, upTo: interval, on: clock)
                let next = looked + spacing
                if clock.now < next { try? await clock.sleep(untilElapsed: next) }
            } else {
                try? await Task.sleep(for: interval)
            }
        }
        files?.stop()
        try? connection.close()
    }
}
