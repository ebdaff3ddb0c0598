import BehaviorKitSync
import Logging

extension QueueWorker {
    /// Runs a pass of `retention` (when this worker wins it) every ``QueueRetention/interval``
    /// on the worker's clock, until cancelled. An error of a pass is logged and counted; the
    /// next pass tries again (a journal that is no ``CommandJournalManagement`` fails every pass,
    /// naming itself).
    func keep(_ retention: QueueRetention) async {
        while !Task.isCancelled {
            do {
                let journal = try queue.management("pruning by a queue's retention")
                if let deleted = try await retention.prune(queue.name, on: journal, now: wallClock.currentDate) {
                    counters.withLock { $0.pruned += deleted }
                    instruments.logger?.debug("pruned settled records", metadata: ["count": "\(deleted)"])
                }
            } catch is CancellationError {
                return
            } catch {
                counters.withLock {
                    $0.journalErrors += 1
                    $0.lastJournalError = "\(error)"
                }
                instruments.logger?.warning(
                    "a pass of the queue's retention failed; the next pass tries again",
                    metadata: ["error": "\(error)"])
            }
            do { try await invoker.keeper.clock.sleep(for: retention.interval) } catch { return }
        }
    }
}
