import BehaviorKitSync
import Logging
import Tracing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    /// Runs the claimed `record` until it finishes or waits, under its lease. An attempt that
    /// stopped because the run was cancelled takes the run again, once, to settle it cancelled.
    /// `plan`: the record's payload decoded, when the caller has it (read here otherwise).
    @discardableResult
    func attempt(
        _ record: CommandJournalRecord, plan: WorkflowPlan? = nil, retakingIfCancelled: Bool = true
    ) async -> WorkflowAttemptOutcome {
        let keeper = invoker.keeper
        let plan = plan.map { Result.success($0) } ?? WorkflowPlan.decoded(record.entry)
        do {
            let outcome = try await keeper.hold(record.id, token: record.attempts) {
                try await self.drive(record, plan)
            }
            if case .settled = outcome {
                settlements.signal()
                await wakeParent(of: (try? plan.get())?.parent, for: record)
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
    private func drive(
        _ record: CommandJournalRecord, _ decoded: Result<WorkflowPlan, any Error>
    ) async throws -> WorkflowAttemptOutcome {
        let key = record.id
        let plan: WorkflowPlan
        do {
            plan = try decoded.get()
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
        let claimedAt = record.leaseExpiresAt.map { $0.adding(.zero - invoker.lease.duration) } ?? record.updatedAt
        let context = WorkflowContext(
            key: key, fencingToken: token, engine: self, recorded: WorkflowRecord.children(children, of: key),
            claimedAt: claimedAt, rollbackCause: cause, compensable: compensable)
        // Cancelled with nothing to compensate: settled at once.
        if let cause, !compensable {
            try await context.settleConsumedMessages()
            return .settled(try await settle(key, token: token, as: .failed(reason: cause)))
        }
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
            try await context.settleConsumedMessages()
            return .settled(
                try await rollBack(
                    context, cause: cause, causeWritten: rollback != nil,
                    done: WorkflowRecord.compensations(children, of: key),
                    policy: policy, after: context.takeUnwritten()))
        }
        // A cancellation took the run from this attempt: the next one settles it.
        if let stop, !(stop is WorkflowError) || WorkflowError.isCancellation(stop) { throw stop }
        if Task.isCancelled {
            try? await journal.release(key, lease: lease, after: .zero)
            throw CancellationError()
        }
        if let stop {
            try await context.settleConsumedMessages()
            return .settled(
                try await settle(key, token: token, as: .failed(reason: "\(stop)"), after: context.takeUnwritten()))
        }
        if suspension == nil {
            // The messages it consumed first: a run never ends with one left waiting.
            try await context.settleConsumedMessages()
        }
        let unwritten = context.takeUnwritten()
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
