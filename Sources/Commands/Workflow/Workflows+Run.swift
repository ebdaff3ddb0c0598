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

/// How a worker's attempt at a run ended.
enum WorkflowAttemptOutcome: Sendable, Hashable {
    /// The run finished, settled so: done, failed or compensated.
    case settled(CommandJournalSettlement)
    /// The run waits (a sleep, a receive): released until it is due.
    case waiting
    /// The attempt stopped without settling (a lost lease, a journal error, a cancellation,
    /// or a workflow this worker does not know): another attempt takes the run up.
    case stopped

    /// The `behaviorkit.outcome` of the attempt's span: `done`, `failed`, `compensated`,
    /// `waiting` or `stopped`.
    var spanOutcome: String {
        switch self {
        case .settled(.done): "done"
        case .settled(.compensated): "compensated"
        case .settled: "failed"
        case .waiting: "waiting"
        case .stopped: "stopped"
        }
    }
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

    /// Runs the claimed `record` until it finishes or waits, under its lease. An attempt that
    /// stopped because the run was cancelled takes the run again, once, to settle it cancelled.
    @discardableResult
    func attempt(_ record: CommandJournalRecord, retakingIfCancelled: Bool = true) async -> WorkflowAttemptOutcome {
        let keeper = invoker.keeper
        do {
            let outcome = try await keeper.hold(record.id, token: record.attempts) { try await self.drive(record) }
            if case .settled = outcome {
                settlements.signal()
                await wakeParent(of: record)
            }
            return outcome
        } catch {
            keeper.drop(record.id, token: record.attempts)
            if retakingIfCancelled, let retaken = await retakeCancelled(record) {
                return await attempt(retaken, retakingIfCancelled: false)
            }
            invoker.logger?.debug(
                "a workflow's attempt stopped; the run is taken up again",
                metadata: ["key": "\(record.id)", "error": "\(error)"])
            return .stopped
        }
    }

    /// The run of `record` held again by this worker, when it was cancelled while this worker's
    /// attempt held it (the cancellation took it, and made it due): its next attempt settles it
    /// cancelled. `nil` when it was not cancelled, or another worker took it first.
    private func retakeCancelled(_ record: CommandJournalRecord) async -> CommandJournalRecord? {
        guard !Task.isCancelled,
            (try? await journal.record(forKey: CommandJournalCancellation.key(of: record.id))) != nil
        else { return nil }
        let keeper = invoker.keeper
        let sent = keeper.now
        guard
            case .resumed(let retaken)? = try? await journal.begin(
                record.entry, queue: queue.name, lease: invoker.lease)
        else { return nil }
        keeper.adopt([retaken], confirmedAt: sent)
        return retaken
    }

    /// Runs the workflow of `record` from its start, answering from the journal what it
    /// recorded, then settles the run, or releases it while it waits. Each attempt is counted
    /// and timed (`behaviorkit_workflow_attempts`, `behaviorkit_workflow_attempt_duration_seconds`)
    /// and, when a tracer is there, a span `behaviorkit.workflow` (a consumer span continuing the
    /// trace of the caller that started the run; in the caller's own trace for
    /// ``run(_:key:input:)``).
    private func drive(_ record: CommandJournalRecord) async throws -> WorkflowAttemptOutcome {
        let key = record.id
        let plan: WorkflowPlan
        do {
            plan = try JSONDecoder().decode(WorkflowPlan.self, from: Data(record.entry.payload))
        } catch {
            return .settled(
                try await settle(
                    key, token: record.attempts,
                    as: .failed(reason: "\(WorkflowError.undecodable(key: key, reason: "\(error)"))")))
        }
        let instruments = invoker.instruments
        guard instruments.isOn else { return try await drive(record, plan) }
        let attributes = DurableInstruments.attributes(
            key: key,
            [
                "behaviorkit.workflow.name": .string(plan.name), "behaviorkit.queue": .string(queue.name),
                "behaviorkit.attempt": .int64(Int64(record.attempts)),
            ])
        return try await instruments.withSpan("behaviorkit.workflow", attributes, continuing: record.traceContext) {
            span in
            let started = invoker.keeper.now
            do {
                let outcome = try await drive(record, plan)
                instruments.workflowAttemptEnded(
                    plan.name, key: key, outcome.spanOutcome, duration: invoker.keeper.now - started, span: span)
                return outcome
            } catch {
                instruments.workflowAttemptEnded(
                    plan.name, key: key, WorkflowAttemptOutcome.stopped.spanOutcome, error: error,
                    duration: invoker.keeper.now - started, span: span)
                throw error
            }
        }
    }

    private func drive(_ record: CommandJournalRecord, _ plan: WorkflowPlan) async throws -> WorkflowAttemptOutcome {
        let key = record.id
        let token = record.attempts
        let lease = invoker.lease(token)
        guard let runner = registry.runners[plan.name] else {
            // Left for a worker that knows the workflow.
            invoker.logger?.warning(
                "\(WorkflowError.unregistered(name: plan.name, key: key)); given back", metadata: ["key": "\(key)"])
            try await journal.release(key, lease: lease, after: invoker.lease.duration)
            return .stopped
        }
        // The first attempt has no children to read: they are written under a lease (a run's
        // steps, sleeps, receives), and a cancellation of a run no worker holds settles it.
        let children = token == 1 ? [] : try await journal.records(parentKey: key)
        let compensable = children.contains { $0.id == CommandJournalCancellation.compensationsKey(of: key) }
        let rollback = children.first { $0.entry.kind == WorkflowRecord.rollbackKind }
        var cause = rollback.map { $0.failureReason ?? "" }
        if let cancellation = children.first(where: { $0.entry.kind == CommandJournalCancellation.kind }) {
            await cancelChildren(of: key, among: children)
            cause = cause ?? cancellation.failureReason ?? "cancelled"
        } else if let parent = try await parentWasCancelled(plan) {
            await cancelChildren(of: key, among: children)
            cause = cause ?? CommandJournalCancellation.reason("its parent '\(parent)' was cancelled")
        }
        // Cancelled with nothing to compensate: settled at once.
        if let cause, !compensable { return .settled(try await settle(key, token: token, as: .failed(reason: cause))) }
        let claimedAt = record.leaseExpiresAt.map { $0.adding(.zero - invoker.lease.duration) } ?? record.updatedAt
        let context = WorkflowContext(
            key: key, fencingToken: token, engine: self, recorded: WorkflowRecord.children(children, of: key),
            claimedAt: claimedAt, rollbackCause: cause, compensable: compensable)
        let result: Result<[UInt8], any Error>
        do {
            result = .success(try await runner(context, plan.input))
        } catch {
            result = .failure(error)
        }
        let (stop, suspension) = context.state.withLock { ($0.stop, $0.suspension) }
        let policy = registry.compensations[plan.name] ?? .default
        if let cause {
            // Run again only to gather the compensations of the steps it recorded.
            if let stop, !(stop is WorkflowRollbackReplay),
                !(stop is WorkflowError) || WorkflowError.isCancellation(stop)
            {
                throw stop
            }
            let settlement = try await rollBack(
                context, cause: cause, causeWritten: rollback != nil,
                done: WorkflowRecord.compensations(children, of: key),
                policy: policy, after: context.takeUnwritten())
            await context.settleConsumedMessages()
            return .settled(settlement)
        }
        // A cancellation took the run from this attempt: the next one settles it.
        if let stop, !(stop is WorkflowError) || WorkflowError.isCancellation(stop) { throw stop }
        if Task.isCancelled {
            try? await journal.release(key, lease: lease, after: .zero)
            throw CancellationError()
        }
        let unwritten = context.takeUnwritten()
        if let stop {
            return .settled(try await settle(key, token: token, as: .failed(reason: "\(stop)"), after: unwritten))
        }
        if let suspension {
            try await journal.release(key, lease: lease, after: suspension)
            if let mailbox = context.state.withLock({ $0.mailbox }) { await wakeIfAMessageWaits(key, in: mailbox) }
            if let child = context.state.withLock({ $0.awaitedChild }) { await wakeIfSettled(key, child: child) }
            return .waiting
        }
        let settlement: CommandJournalSettlement
        switch result {
        case .success(let output):
            settlement = try await settle(key, token: token, as: .done(output: output), after: unwritten)
        case .failure(let error) where context.state.withLock({ !$0.compensations.isEmpty }):
            settlement = try await rollBack(
                context, cause: JournaledInvoker.reason(error), causeWritten: false, done: [:], policy: policy,
                after: unwritten)
        case .failure(let error):
            settlement = try await settle(
                key, token: token, as: .failed(reason: JournaledInvoker.reason(error)), after: unwritten)
        }
        await context.settleConsumedMessages()
        return .settled(settlement)
    }

    /// Settles the run `key` at the attempt `token`, in one commit with `changes` (its last
    /// step's settlement, when it waits); answers `settlement`.
    func settle(
        _ key: String, token: Int, as settlement: CommandJournalSettlement, after changes: [CommandJournalChange] = []
    ) async throws -> CommandJournalSettlement {
        try await invoker.keeper.settling(key, token: token) {
            try await journal.settle(changes + [.settle(key, as: settlement)], lease: invoker.lease(token))
        }
        return settlement
    }
}
