import BehaviorKitSync

/// The engine behind the invokers: a queue run one command at a time, in order, by one drain
/// task at a time, and the outcomes it keeps.
///
/// Submitting takes the lock once and stores the command as it is; the drain task takes the
/// whole queue at once and records the outcomes of a run together, so a burst costs one task
/// and about one lock acquisition per command. The rare `perform` callers wait aside, keyed by
/// their command's place in the queue, so that plain submissions carry nothing extra.
final class InvokerCore: @unchecked Sendable {
    typealias Waiter = CheckedContinuation<Void, any Error>

    private let lock = Lock()
    private var queue: [any Command] = []
    /// The `perform` callers waiting for queued commands, by index in `queue`.
    private var queueWaiters: [Int: Waiter] = [:]
    private var draining = false
    private var running = 0
    /// The outcomes kept, oldest first, as the runs that produced them (moved in whole).
    private var outcomeRuns: [[CommandOutcome]] = []
    private var outcomesKept = 0
    private var finished = 0
    private var failed = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private let outcomeLimit: Int

    init(outcomeLimit: Int) {
        self.outcomeLimit = max(0, outcomeLimit)
    }

    func enqueue(_ command: consuming any Command, waiter: Waiter? = nil) {
        lock.lock()
        if let waiter { queueWaiters[queue.count] = waiter }
        queue.append(command)
        let start = !draining
        draining = true
        lock.unlock()
        if start { startDraining() }
    }

    func enqueue(contentsOf commands: some Sequence<any Command>) {
        lock.lock()
        queue.append(contentsOf: commands)
        let start = !draining && !queue.isEmpty
        if start { draining = true }
        lock.unlock()
        if start { startDraining() }
    }

    /// Takes the run for a command executed on the caller's task, if nothing is queued or
    /// running: the synchronous fast path of `perform`.
    func beginInline() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !draining else { return false }
        draining = true
        running = 1
        return true
    }

    /// Records the outcome of a command run inline, and hands what was queued meanwhile to a
    /// drain task.
    func endInline(_ outcome: consuming CommandOutcome) {
        lock.lock()
        let forgotten = commit(outcome)
        let start = !queue.isEmpty
        var idle: [CheckedContinuation<Void, Never>] = []
        if !start {
            draining = false
            swap(&idle, &idleWaiters)
        }
        lock.unlock()
        withExtendedLifetime(forgotten) {}
        if start { startDraining() }
        for waiter in idle { waiter.resume() }
    }

    private func startDraining() {
        Task { await self.drain() }
    }

    /// Runs the queue until it is empty. Takes the lock once per run of commands: to record
    /// the outcomes of the run before and take the next run (and before a `perform` caller
    /// resumes, so that it sees its outcome).
    @concurrent
    private func drain() async {
        var batch: [any Command] = []
        var waiters: [Int: Waiter] = [:]
        var results: [CommandOutcome] = []
        while true {
            lock.lock()
            let forgotten = commit(&results)
            swap(&batch, &queue)
            swap(&waiters, &queueWaiters)
            if batch.isEmpty {
                draining = false
                let idle = idleWaiters
                idleWaiters = []
                lock.unlock()
                for waiter in idle { waiter.resume() }
                return
            }
            running = batch.count
            lock.unlock()
            withExtendedLifetime(forgotten) {}  // release the oldest outcomes outside the lock
            // Move each command out of the batch, oldest first, and into its outcome: the
            // drain task copies no command (copies of commands that share a receiver would
            // contend for its reference count with the submitting thread).
            batch.reverse()
            var index = 0
            while let command = batch.popLast() {
                let waiter = waiters.isEmpty ? nil : waiters.removeValue(forKey: index)
                index += 1
                do {
                    try await command.execute()
                    results.append(.finished(command))
                    if let waiter {
                        _ = lock.withLock { commit(&results) }
                        waiter.resume()
                    }
                } catch {
                    results.append(.failed(command, error: error))
                    if let waiter {
                        _ = lock.withLock { commit(&results) }
                        waiter.resume(throwing: error)
                    }
                }
            }
        }
    }

    /// Counts and keeps `results`, and empties it. Called with the lock held.
    ///
    /// - Returns: the runs of outcomes no longer kept, for the caller to release after unlocking.
    private func commit(_ results: inout [CommandOutcome]) -> [[CommandOutcome]] {
        guard !results.isEmpty else { return [] }
        running -= results.count
        for outcome in results {
            if case .finished = outcome { finished += 1 } else { failed += 1 }
        }
        guard outcomeLimit > 0 else {
            results.removeAll(keepingCapacity: true)
            return []
        }
        outcomesKept += results.count
        outcomeRuns.append(results)
        results = []
        return forgetOldRuns()
    }

    /// Counts and keeps one outcome (of a command run inline). Called with the lock held.
    private func commit(_ outcome: consuming CommandOutcome) -> [[CommandOutcome]] {
        running -= 1
        let isFinished = outcome.isFinished
        if isFinished { finished += 1 } else { failed += 1 }
        guard outcomeLimit > 0 else { return [] }
        outcomesKept += 1
        if let last = outcomeRuns.indices.last, outcomeRuns[last].count < Self.runSize {
            outcomeRuns[last].append(outcome)
        } else {
            var run: [CommandOutcome] = []
            run.reserveCapacity(Self.runSize)
            run.append(outcome)
            outcomeRuns.append(run)
        }
        return forgetOldRuns()
    }

    /// How many single outcomes share one run.
    private static let runSize = 256

    /// Forgets whole runs while the others still hold the last `outcomeLimit` outcomes.
    private func forgetOldRuns() -> [[CommandOutcome]] {
        var forgotten: [[CommandOutcome]] = []
        while let oldest = outcomeRuns.first, outcomesKept - oldest.count >= outcomeLimit {
            outcomesKept -= oldest.count
            forgotten.append(outcomeRuns.removeFirst())
        }
        return forgotten
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
        lock.withLock { Array(outcomeRuns.joined().suffix(outcomeLimit)) }
    }

    var counts: (finished: Int, failed: Int, waiting: Int) {
        lock.withLock { (finished, failed, queue.count + running) }
    }
}
