import BehaviorKitSync

/// Claims and runs the commands and transactions of a ``CommandQueue``, at most `slots` at a
/// time, under the leases of its ``JournaledInvoker``: run one in every process that serves the
/// queue. A worker that stops has its claims taken over by the others once its leases expire.
///
/// ```swift
/// let worker = QueueWorker(payments, invoker: invoker, slots: 8, pollInterval: .milliseconds(200))
/// let task = Task { try await worker.run() }  // until cancelled
/// …
/// task.cancel()                                // stops claiming; what runs finishes
/// ```
///
/// ``runDue()`` runs what is due now and returns: for tests, and for a cron-like use.
public final class QueueWorker: Sendable {
    /// The queue served.
    public let queue: CommandQueue
    /// The worker identity, leases and registry the work runs with.
    public let invoker: JournaledInvoker
    /// How many records run at once in this worker.
    public let slots: Int
    /// How long the worker waits between looks when nothing is due (it wakes sooner for a
    /// record that falls due).
    public let pollInterval: Duration

    let counters: LockedValue<QueueWorkerStatistics>

    /// A worker for `queue` running `slots` records at once with `invoker`'s identity.
    public init(_ queue: CommandQueue, invoker: JournaledInvoker, slots: Int = 1, pollInterval: Duration = .seconds(1))
    {
        self.queue = queue
        self.invoker = invoker
        self.slots = max(1, slots)
        self.pollInterval = max(pollInterval, .milliseconds(1))
        self.counters = LockedValue(QueueWorkerStatistics(queue: queue.name))
    }

    /// What the worker did so far.
    public var statistics: QueueWorkerStatistics { counters.withLock { $0 } }

    /// Claims and runs due records until cancelled; waits `pollInterval` (or until the next
    /// record falls due) when there is nothing to do. A journal error is counted and retried
    /// after `pollInterval`.
    ///
    /// Cancelling the task stops the claims, not the work: the records already claimed run to
    /// their settlement (their transactions are not rolled back), and `run()` returns once they
    /// have — a graceful shutdown.
    public func run() async {
        enum Event: Sendable {
            case settled(String)
            case woke
        }
        let (events, wake) = AsyncStream<Event>.makeStream()
        var inFlight: [String: Task<Void, Never>] = [:]
        var sleeper: Task<Void, Never>?
        var iterator = events.makeAsyncIterator()
        while !Task.isCancelled {
            if inFlight.count < slots, sleeper == nil {
                let claimed = await claim(slots - inFlight.count)
                for record in claimed.records {
                    inFlight[record.id] = Task {
                        await self.settle(record)
                        wake.yield(.settled(record.id))
                    }
                }
                if claimed.records.isEmpty || claimed.failed {
                    let wait = claimed.failed ? pollInterval : min(claimed.nextDue ?? pollInterval, pollInterval)
                    sleeper = Task {
                        try? await self.invoker.keeper.clock.sleep(for: max(wait, .milliseconds(1)))
                        wake.yield(.woke)
                    }
                }
                continue
            }
            switch await iterator.next() {
            case .settled(let key)?: inFlight[key] = nil
            case .woke?: sleeper = nil
            case nil: break
            }
        }
        sleeper?.cancel()
        for task in inFlight.values { await task.value }
        wake.finish()
    }

    /// Claims and runs what is due now, until nothing is; returns how many records it settled.
    ///
    /// - Throws: the journal's error when it cannot claim.
    @discardableResult
    public func runDue() async throws -> Int {
        var settled = 0
        while true {
            let sent = invoker.keeper.now
            let claim = try await invoker.journal.claim(
                slots, from: queue.name, concurrency: queue.concurrency, lease: invoker.lease)
            if claim.records.isEmpty { return settled }
            invoker.keeper.adopt(claim.records.map(\.id), confirmedAt: sent)
            count(claimed: claim.records)
            await withTaskGroup(of: Void.self) { group in
                for record in claim.records { group.addTask { await self.settle(record) } }
            }
            settled += claim.records.count
        }
    }

    private func claim(_ limit: Int) async -> (records: [CommandJournalRecord], nextDue: Duration?, failed: Bool) {
        let sent = invoker.keeper.now
        do {
            let claim = try await invoker.journal.claim(
                limit, from: queue.name, concurrency: queue.concurrency, lease: invoker.lease)
            invoker.keeper.adopt(claim.records.map(\.id), confirmedAt: sent)
            count(claimed: claim.records)
            return (claim.records, claim.nextDue, false)
        } catch {
            counters.withLock {
                $0.journalErrors += 1
                $0.lastJournalError = "\(error)"
            }
            return ([], nil, true)
        }
    }

    private func count(claimed records: [CommandJournalRecord]) {
        counters.withLock { statistics in
            statistics.claimed += records.count
            statistics.takenOver += records.count { $0.attempts > 1 }
        }
    }
}
