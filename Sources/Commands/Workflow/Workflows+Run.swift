import BehaviorKitSync
import Logging
import Tracing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What wakes ``Workflows/run()``: an attempt that ended (freeing its slot), the end of its
/// wait, or a look the journal asked for (a run started or made due).
enum WorkflowWorkerEvent: Sendable {
    case ended(Int)
    case woke(Int)
    case look
}

extension Workflows {
    /// Claims the runs due now (at most ``slots``) and runs each until it finishes or waits;
    /// returns how many it claimed. For tests, and for a cron-like use; ``run()`` calls it
    /// in a loop.
    ///
    /// - Throws: the journal's error when it cannot claim.
    @discardableResult
    public func runDue() async throws -> Int {
        try await claimAndRun().claimed
    }

    /// Runs due runs until the task is cancelled, up to ``slots`` at a time: claims as many as
    /// its slots allow and runs each until it finishes or waits, and claims again as soon as one
    /// frees its slot — a run whose step takes long (an HTTP call of a minute) holds its own
    /// slot, not the worker — when the journal says a run was started (``QueueWakeSource``), or
    /// after ``pollInterval`` (or sooner, when a run falls due). A claim that fails is logged (an
    /// error on the invoker's logger) and tried again at the next poll. Cancelling stops the
    /// claims; the attempts under way finish first.
    public func run() async {
        let mailbox = LockedValue<[WorkflowWorkerEvent]>([])
        let (looks, look) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let post: @Sendable (WorkflowWorkerEvent) -> Void = { event in
            mailbox.withLock { $0.append(event) }
            look.yield()
        }
        let listener = (journal as? any QueueWakeSource).map { source in
            let wakeups = source.wakeups(of: queue.name)
            return Task {
                for await _ in wakeups { post(.look) }
            }
        }
        // Each attempt in a task of its own: cancelling the worker stops no attempt half-way.
        var running: [Int: Task<Void, Never>] = [:]
        var attempts = 0
        // The wait under way, when the last claim found fewer runs due than it had slots for.
        var sleeper: (number: Int, task: Task<Void, Never>)?
        var sleeps = 0
        var claimFailed = false
        var iterator = looks.makeAsyncIterator()
        while !Task.isCancelled {
            for event in mailbox.withLock({ events in
                defer { events = [] }; return events
            }) {
                switch event {
                case .ended(let number): running[number] = nil
                case .woke(let number): if sleeper?.number == number { sleeper = nil }
                case .look:
                    // Claim now rather than at the end of the wait; after a failed claim, the
                    // wait runs its course, so that a journal in trouble is not hammered.
                    if let current = sleeper, !claimFailed {
                        current.task.cancel()
                        sleeper = nil
                    }
                }
            }
            if running.count < slots, sleeper == nil {
                let free = slots - running.count
                var claimed: [CommandJournalRecord] = []
                var nextDue: Duration?
                do {
                    (claimed, nextDue) = try await claimRuns(free)
                    claimFailed = false
                } catch {
                    if Task.isCancelled { break }
                    // The journal may be back at the next poll: the worker goes on.
                    invoker.logger?.error(
                        "claiming workflows failed; looking again at the next poll",
                        metadata: ["queue": "\(queue.name)", "error": "\(error)"])
                    claimFailed = true
                }
                for record in claimed {
                    attempts += 1
                    let number = attempts
                    running[number] = Task {
                        await self.attempt(record)
                        post(.ended(number))
                    }
                }
                if claimed.count < free {
                    // Nothing more is due now: wait for a look, or the next run due.
                    let wait = claimFailed ? pollInterval : min(nextDue ?? pollInterval, pollInterval)
                    let clock = invoker.keeper.clock
                    sleeps += 1
                    let number = sleeps
                    sleeper = (
                        number,
                        Task {
                            // Cancelled, as something else woke the worker: it must not wake it once
                            // more (the worker would claim in a loop).
                            guard (try? await clock.sleep(for: wait)) != nil else { return }
                            post(.woke(number))
                        }
                    )
                }
                continue
            }
            if mailbox.withLock({ $0.isEmpty }) {
                guard await iterator.next() != nil else { break }
            }
        }
        listener?.cancel()
        sleeper?.task.cancel()
        for attempt in running.values { await attempt.value }
    }

    /// Claims up to `limit` due runs for this worker, under its lease; answers them and when the
    /// next falls due.
    func claimRuns(_ limit: Int) async throws -> (records: [CommandJournalRecord], nextDue: Duration?) {
        let keeper = invoker.keeper
        let sent = keeper.now
        let claim = try await keeper.claiming { takingOver in
            try await journal.claim(
                limit, from: queue.name, concurrency: queue.concurrency,
                takingOverFrom: takingOver ? invoker.owner : nil, lease: invoker.lease)
        }
        keeper.adopt(claim.records, confirmedAt: sent)
        return (claim.records, claim.nextDue)
    }

    /// Claims due runs and runs them; answers how many it claimed and when the next falls due.
    func claimAndRun() async throws -> (claimed: Int, nextDue: Duration?) {
        let claim = try await claimRuns(slots)
        // Each attempt in a task of its own: cancelling the caller stops no attempt half-way.
        let attempts = claim.records.map { record in Task { await self.attempt(record) } }
        for attempt in attempts { _ = await attempt.value }
        return (claim.records.count, claim.nextDue)
    }
}
