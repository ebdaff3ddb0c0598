import BehaviorKitSync
import Commands
import Logging

/// Wakes this process's callers waiting on records (`JobHandle.result()`) when another process
/// settled them: from the first ``start()`` until ``stop()``, while someone waits, it reads
/// every `interval` which of the records waited on are no longer pending (one indexed query
/// for all of them) and wakes their waiters. Nothing is read while no one waits, and the
/// journal's writes pay nothing: no trigger, no notification per settlement.
final class PostgresSettlementWatcher: Sendable {
    /// Answers which of the keys are settled.
    typealias Look = @Sendable ([String]) async throws -> [String]

    private let task = WatcherTask()
    private let settled: QueueSignal
    private let interval: Duration
    private let logger: Logger
    private let look: Look

    /// How often the watcher looks while someone waits.
    static let defaultInterval: Duration = .milliseconds(10)

    init(settled: QueueSignal, interval: Duration = defaultInterval, logger: Logger, look: @escaping Look) {
        self.settled = settled
        self.interval = interval
        self.logger = logger
        self.look = look
    }

    /// Starts watching, once; nothing after ``stop()``.
    func start() {
        task.start { [settled, interval, logger, look] in
            while !Task.isCancelled {
                let keys = settled.queues
                if !keys.isEmpty {
                    do {
                        for key in try await look(keys.sorted()) { settled.signal(key) }
                    } catch is CancellationError {
                        return
                    } catch {
                        logger.debug("looking for settled records failed once", metadata: ["error": "\(error)"])
                    }
                }
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// Stops watching.
    func stop() async {
        await task.stop()
    }
}
