import BehaviorKitSync
public import Logging

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
///
/// It logs, counts and traces what it claims and how each record settled (<doc:Observability>).
public final class QueueWorker: Sendable {
    /// The queue served.
    public let queue: CommandQueue
    /// The worker identity, leases and registry the work runs with.
    public let invoker: JournaledInvoker
    /// How many records run at once in this worker. A command's slot is free once its `execute`
    /// ended, while its settlement commits (the record stays held until it settled); a
    /// transaction's, once it settled.
    public let slots: Int
    /// How long the worker waits between looks when nothing is due (it wakes sooner for a
    /// record that falls due).
    public let pollInterval: Duration
    /// How often a command whose kind has no policy in the registry is tried
    /// (``CommandRegistry/setRetryPolicy(_:forKind:)``): ``RetryPolicy/never`` by default, so
    /// that a command that throws fails after one attempt, unless it throws ``RetryAfter``.
    public let retryPolicy: RetryPolicy
    /// How long the queue keeps its settled records, or `nil`: ``run()`` then prunes nothing.
    public let retention: QueueRetention?
    /// The time the retention's cut-offs are reckoned from.
    let wallClock: any WallClock

    let counters: LockedValue<QueueWorkerStatistics>
    let instruments: DurableInstruments

    /// A worker for `queue` running `slots` records at once with `invoker`'s identity.
    ///
    /// - Parameters:
    ///   - queue: the queue to serve.
    ///   - invoker: the worker identity, leases and registry to run the records with.
    ///   - slots: how many records run at once in this worker (at least 1).
    ///   - pollInterval: how long to wait between looks when nothing is due.
    ///   - retryPolicy: how often a command whose kind has no policy in the registry is tried.
    ///   - logger: where the worker logs what it claims, how each record settled, and what goes
    ///     wrong; `nil` for the invoker's ``JournaledInvoker/logger``.
    ///   - retention: how long the queue keeps its settled records: ``run()`` then prunes them
    ///     every ``QueueRetention/interval``, in passes one worker of the fleet runs at a time;
    ///     `nil`: it prunes nothing.
    ///   - wallClock: the time the retention's cut-offs are reckoned from (the journal's, for a
    ///     journal in this process).
    public init(
        _ queue: CommandQueue, invoker: JournaledInvoker, slots: Int = 1, pollInterval: Duration = .seconds(1),
        retryPolicy: RetryPolicy = .never, logger: Logger? = nil, retention: QueueRetention? = nil,
        wallClock: any WallClock = SystemWallClock()
    ) {
        self.retention = retention
        self.wallClock = wallClock
        self.retryPolicy = retryPolicy
        self.queue = queue
        self.invoker = invoker
        self.slots = max(1, slots)
        self.pollInterval = max(pollInterval, .milliseconds(1))
        var statistics = QueueWorkerStatistics(queue: queue.name)
        statistics.openSlots = self.slots
        self.counters = LockedValue(statistics)
        var logger = logger ?? invoker.logger
        logger?[metadataKey: "queue"] = "\(queue.name)"
        if logger?[metadataKey: "owner"] == nil { logger?[metadataKey: "owner"] = "\(invoker.owner)" }
        self.instruments = DurableInstruments(logger: logger)
    }

    /// What the worker did so far.
    public var statistics: QueueWorkerStatistics { counters.withLock { $0 } }

    /// Claims and runs due records until cancelled; waits `pollInterval` (or until the next
    /// record falls due, or the next start its queue's rate limit allows) when there is nothing
    /// to do, and claims at once when its journal, a ``QueueWakeSource``, says work came (an
    /// enqueue; on PostgreSQL and SQLite, in any process) — unless the queue's own rate limit
    /// holds its records back (``CommandJournalClaim/heldByRateLimit``): it then sleeps through
    /// the wake-ups until the next start, or its `pollInterval`, whichever comes first. A
    /// journal error is counted and retried after `pollInterval`.
    ///
    /// It runs up to `slots` records at once while they settle in time (a command's slot is free
    /// once it ended and its settlement is queued for the journal's commit; before a claim the
    /// loop lets the commands about to end do so, so that one claim takes their slots and joins
    /// their settlements in one commit: about one commit for every `slots` no-op jobs; settlements
    /// that find the journal idle wait for that claim, rather than commit on their own just
    /// before it, unless the worker has no claim to make). Each attempt
    /// it loses (its lease lapsed before the journal renewed it: the journal or the machine is too slow
    /// for the lease) or the journal fails halves that, down to one; as many settled in time as
    /// it runs at once give one slot back (``QueueWorkerStatistics/openSlots``). An overloaded
    /// fleet so takes less work until its leases hold, instead of taking over each other's.
    ///
    /// Cancelling the task stops the claims, not the work: the records already claimed run to
    /// their settlement (their transactions are not rolled back), and `run()` returns once they
    /// have — a graceful shutdown.
    public func run() async {
        enum Event: Sendable {
            /// The command of the record so claimed ended; its settlement is committing.
            case ended(String)
            case settled(String, DurableOutcome)
            /// The sleep numbered so ended.
            case woke(Int)
            /// The journal said work may have come (``QueueWakeSource``).
            case notified
        }
        // Events wait in a mailbox; the stream only says "look". After each claim the loop takes
        // every event that came meanwhile, so that the slots freed during one claim are filled by
        // the next claim at once rather than by one claim each.
        let mailbox = LockedValue<[Event]>([])
        let (looks, look) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let wake: @Sendable (Event) -> Void = { event in
            mailbox.withLock { $0.append(event) }
            look.yield()
        }
        // Every claim until it settled, by key and attempt (a record released to be tried again
        // may be claimed anew while its last attempt's task ends); the slots count only those
        // whose command has not ended (`settle(_:commandEnded:)`).
        var inFlight: [String: Task<Void, Never>] = [:]
        var running = Set<String>()
        // The sleep under way; `held`: until the next start the queue's rate limit allows, which
        // no wake-up brings sooner.
        var sleeper: (number: Int, task: Task<Void, Never>, held: Bool)?
        var sleeps = 0
        var claimFailed = false
        var admission = QueueAdmission(slots: slots)
        var gathered = 0
        var iterator = looks.makeAsyncIterator()
        // The settlements of the commands that ended wait for the next claim, to commit with it
        // (``WriteQueued/heldBy``): released once it is queued, or when there is none to make.
        let held = HeldWrites()
        let pruner = retention.map { retention in Task { await self.keep(retention) } }
        let listener = (queue.journal as? any QueueWakeSource).map { source in
            let wakeups = source.wakeups(of: queue.name)
            return Task {
                for await _ in wakeups { wake(.notified) }
            }
        }
        while !Task.isCancelled {
            // Every event that came meanwhile first, so that a claim asks for every slot they freed.
            for event in mailbox.withLock({ events in
                defer { events = [] }; return events
            }) {
                switch event {
                case .ended(let attempt): running.remove(attempt)
                case .settled(let attempt, let outcome):
                    inFlight[attempt] = nil
                    running.remove(attempt)
                    admission.settled(outcome)
                    counters.withLock { $0.openSlots = admission.limit }
                case .woke(let number): if sleeper?.number == number { sleeper = nil }
                case .notified:
                    // Claim now rather than at the end of the sleep; a claim that failed waits its
                    // poll interval all the same, so that a journal in trouble is not hammered.
                    if let current = sleeper, !claimFailed, !current.held {
                        current.task.cancel()
                        sleeper = nil
                    }
                }
            }
            if running.count < admission.limit, sleeper == nil {
                // Commands about to end free their slots in a moment: let them first, so that one
                // claim takes every slot (and joins their settlements' commit) rather than one each.
                if !running.isEmpty, gathered < Self.gatheringYields {
                    gathered += 1
                    await Task.yield()
                    continue
                }
                gathered = 0
                let claimed = await claim(admission.limit - running.count)
                held.release()
                claimFailed = claimed.failed
                for record in claimed.records {
                    let attempt = "\(record.id)#\(record.attempts)"
                    running.insert(attempt)
                    inFlight[attempt] = Task {
                        let outcome = await WriteQueued.$heldBy.withValue(held) {
                            await self.settle(record) { wake(.ended(attempt)) }
                        }
                        wake(.settled(attempt, outcome))
                    }
                }
                if claimed.records.isEmpty || claimed.failed {
                    let wait = claimed.failed ? pollInterval : min(claimed.nextDue ?? pollInterval, pollInterval)
                    let held = !claimed.failed && claimed.heldByRateLimit
                    sleeps += 1
                    let number = sleeps
                    sleeper = (
                        number,
                        Task {
                            try? await self.invoker.keeper.clock.sleep(for: max(wait, .milliseconds(1)))
                            wake(.woke(number))
                        },
                        held
                    )
                }
                continue
            }
            if mailbox.withLock({ $0.isEmpty }) {
                held.release()
                guard await iterator.next() != nil else { break }
            }
        }
        held.close()
        listener?.cancel()
        pruner?.cancel()
        sleeper?.task.cancel()
        for task in inFlight.values { await task.value }
        look.finish()
    }

    /// How often ``run()`` yields, before a claim, to the commands still running, so that those
    /// about to end are in the claim.
    static let gatheringYields = 2

    /// Claims and runs what is due now, until nothing is; returns how many records it settled.
    ///
    /// - Throws: the journal's error when it cannot claim.
    @discardableResult
    public func runDue() async throws -> Int {
        var settled = 0
        while true {
            let sent = invoker.keeper.now
            let claim = try await invoker.keeper.claiming { takingOver in
                try await invoker.journal.claim(
                    slots, from: queue.name, concurrency: queue.concurrency,
                    perPartition: queue.concurrencyPerPartition, takingOverFrom: takingOver ? invoker.owner : nil,
                    lease: invoker.lease)
            }
            if claim.records.isEmpty { return settled }
            invoker.keeper.adopt(claim.records, confirmedAt: sent)
            count(claimed: claim.records, claim)
            await withTaskGroup(of: Void.self) { group in
                for record in claim.records { group.addTask { await self.settle(record) } }
            }
            settled += claim.records.count
        }
    }

    private func claim(
        _ limit: Int
    ) async -> (
        records: [CommandJournalRecord], nextDue: Duration?, heldByRateLimit: Bool, failed: Bool
    ) {
        let sent = invoker.keeper.now
        do {
            let claim = try await invoker.keeper.claiming { takingOver in
                try await invoker.journal.claim(
                    limit, from: queue.name, concurrency: queue.concurrency,
                    perPartition: queue.concurrencyPerPartition, takingOverFrom: takingOver ? invoker.owner : nil,
                    lease: invoker.lease)
            }
            invoker.keeper.adopt(claim.records, confirmedAt: sent)
            count(claimed: claim.records, claim)
            return (claim.records, claim.nextDue, claim.heldByRateLimit, false)
        } catch {
            counters.withLock {
                $0.journalErrors += 1
                $0.lastJournalError = "\(error)"
            }
            instruments.metrics?.increment(DurableMetric.queueClaimErrors, [("queue", queue.name)])
            instruments.logger?.warning(
                "claiming failed; retrying after the poll interval",
                metadata: ["error": "\(error)", "retry_after": "\(pollInterval)"])
            return ([], nil, false, true)
        }
    }

    private func count(claimed records: [CommandJournalRecord], _ claim: CommandJournalClaim) {
        let takenOver = records.count { $0.attempts > 1 }
        counters.withLock { statistics in
            statistics.claimed += records.count
            statistics.takenOver += takenOver
        }
        guard instruments.isOn, !records.isEmpty else { return }
        if let metrics = instruments.metrics {
            metrics.increment(DurableMetric.queueClaimed, [("queue", queue.name)], by: records.count)
            if takenOver > 0 { metrics.increment(DurableMetric.queueTakenOver, [("queue", queue.name)], by: takenOver) }
        }
        guard let logger = instruments.logger else { return }
        for record in records where record.attempts > 1 {
            var metadata: Logger.Metadata = ["key": "\(record.id)", "attempt": "\(record.attempts)"]
            if let previous = claim.previousOwners[record.id] { metadata["previous_owner"] = "\(previous)" }
            logger.info("took over a record from a stopped worker", metadata: metadata)
        }
        logger.trace("claimed", metadata: ["count": "\(records.count)"])
    }
}
