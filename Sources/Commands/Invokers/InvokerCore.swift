import BehaviorKitSync

/// The engine behind the invokers: a queue run one command at a time, in order, by one drain
/// task at a time, and the outcomes it keeps.
///
/// Submitting takes the lock once; the drain task takes the whole queue at once, so a burst
/// costs one task and two lock acquisitions per command (take, record).
final class InvokerCore: @unchecked Sendable {
    struct Job {
        var command: any Command
        var waiter: CheckedContinuation<Void, any Error>?
    }

    private let lock = Lock()
    private var queue: [Job] = []
    private var draining = false
    private var running = 0
    private var outcomeLog: [CommandOutcome] = []
    private var finished = 0
    private var failed = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private let outcomeLimit: Int

    init(outcomeLimit: Int) {
        self.outcomeLimit = max(0, outcomeLimit)
    }

    func enqueue(_ job: Job) {
        lock.lock()
        queue.append(job)
        let start = !draining
        draining = true
        lock.unlock()
        if start { startDraining() }
    }

    func enqueue(contentsOf commands: some Sequence<any Command>) {
        lock.lock()
        for command in commands { queue.append(Job(command: command, waiter: nil)) }
        let start = !draining && !queue.isEmpty
        if start { draining = true }
        lock.unlock()
        if start { startDraining() }
    }

    private func startDraining() {
        Task { await self.drain() }
    }

    @concurrent
    private func drain() async {
        var batch: [Job] = []
        while true {
            lock.lock()
            swap(&batch, &queue)
            if batch.isEmpty {
                draining = false
                let waiters = idleWaiters
                idleWaiters = []
                lock.unlock()
                for waiter in waiters { waiter.resume() }
                return
            }
            running = batch.count
            lock.unlock()
            for job in batch {
                do {
                    try await job.command.execute()
                    record(.finished(job.command))
                    job.waiter?.resume()
                } catch {
                    record(.failed(job.command, error: error))
                    job.waiter?.resume(throwing: error)
                }
            }
            batch.removeAll(keepingCapacity: true)
        }
    }

    private func record(_ outcome: CommandOutcome) {
        lock.lock()
        running -= 1
        if outcome.isFinished { finished += 1 } else { failed += 1 }
        if outcomeLimit > 0 {
            outcomeLog.append(outcome)
            // Trim in chunks so that keeping the last N outcomes costs O(1) amortised.
            if outcomeLog.count >= 2 * outcomeLimit {
                outcomeLog.removeFirst(outcomeLog.count - outcomeLimit)
            }
        }
        lock.unlock()
    }

    func idle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if !draining {
                lock.unlock()
                continuation.resume()
                return
            }
            idleWaiters.append(continuation)
            lock.unlock()
        }
    }

    var outcomes: [CommandOutcome] {
        lock.withLock { Array(outcomeLog.suffix(outcomeLimit)) }
    }

    var counts: (finished: Int, failed: Int, waiting: Int) {
        lock.withLock { (finished, failed, queue.count + running) }
    }
}
