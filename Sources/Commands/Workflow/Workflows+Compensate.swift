import BehaviorKitSync
import Logging

extension Workflows {
    /// Rolls the run of `context` back for `cause`: writes the cause down (with the last
    /// step's settlement, `unwritten`), unless `causeWritten`; runs the compensations the
    /// function gathered, newest first, but those `done` shows written (by an attempt that
    /// stopped); writes each down as it ends, compensated or failed; then settles the run
    /// compensated, or failed naming each compensation that failed (and those written failed
    /// before). `policy` applies as to a ``DurableTransaction``: retries and backoff, the
    /// failure mode, a deadline. The compensations run on a task of their own, which the
    /// worker's cancellation does not reach; a lost lease stops them (the new holder goes on).
    func rollBack(
        _ context: WorkflowContext, cause: String, causeWritten: Bool, done: [Int: CommandJournalRecord],
        policy: CompensationPolicy, after unwritten: [CommandJournalChange]
    ) async throws -> CommandJournalSettlement {
        let (key, token) = (context.key, context.fencingToken)
        let mark = CommandJournalEntry(
            idempotencyKey: WorkflowRecord.rollbackKey(key), kind: WorkflowRecord.rollbackKind, payload: [],
            parentKey: key)
        let changes = unwritten + (causeWritten ? [] : [.settle(mark, as: .failed(reason: cause))])
        if !changes.isEmpty { try await journal.settle(changes, lease: invoker.lease(token)) }
        let earlier = done.sorted { $0.key > $1.key }.compactMap { position, record -> String? in
            guard record.status == .failed else { return nil }
            let name = String(decoding: record.entry.payload, as: UTF8.self)
            return "compensation of step '\(name)' at position \(position) failed: \(record.failureReason ?? "")"
        }
        let pending = context.state.withLock { $0.compensations }.filter { done[$0.position] == nil }
        var rollback = WorkflowRollback(pending: pending.sorted { $0.position > $1.position })
        if policy.failureMode == .stopAtFirstFailure && !earlier.isEmpty {
            // An attempt that stopped met a failure already: none runs after it.
            rollback.interrupt("not run: compensation stopped at an earlier failure")
        }
        let progress = LockedValue(rollback)
        let finished: Void? = try await policy.withinDeadline {
            try await self.compensate(context, cause: cause, policy: policy, progress)
        }
        let failures = progress.withLock { progress in
            if finished == nil, let deadline = policy.deadline {
                progress.interrupt("\(CompensationInterruption.deadlinePassed(deadline))")
            }
            progress.closed = true
            return earlier + progress.failures
        }
        let settlement: CommandJournalSettlement =
            failures.isEmpty ? .compensated : .failed(reason: failures.joined(separator: "; ") + "; after: \(cause)")
        return try await settle(key, token: token, as: settlement)
    }

    /// Runs the pending compensations of `progress` one by one, newest first, each under the
    /// policy's retries, writing each down as it ends; stops when the rollback is closed.
    private func compensate(
        _ context: WorkflowContext, cause: String, policy: CompensationPolicy, _ progress: LockedValue<WorkflowRollback>
    ) async throws {
        let (key, token) = (context.key, context.fencingToken)
        while let compensation = progress.withLock({ $0.closed ? nil : $0.pending.first }) {
            try await invoker.keeper.check(key, token: token)
            let step = DurableContext(
                key: WorkflowRecord.childKey(key, compensation.position), transactionKey: key,
                stepIndex: compensation.position, owner: invoker.owner, attempt: token, compensationCause: cause)
            let error = try await policy.undo(
                check: { _ throws(CommandJournalError) in
                    if invoker.keeper.isLost(key, token: token) { throw .leaseLost(key: key, owner: nil) }
                },
                stopped: { progress.withLock { $0.closed } },
                retried: { attempt, error in
                    invoker.logger?.warning(
                        "a workflow's compensation failed; it is tried again",
                        metadata: [
                            "key": "\(key)", "step": "\(compensation.name)", "retry": "\(attempt)",
                            "error": "\(error)",
                        ])
                }
            ) {
                try await context.traced(compensation.name, step, span: "behaviorkit.workflow.compensation") {
                    try await DurableContext.$current.withValue(step) { try await compensation.undo(step) }
                }
            }
            guard !progress.withLock({ $0.closed }) else { return }
            let entry = CommandJournalEntry(
                idempotencyKey: WorkflowRecord.compensationKey(key, compensation.position),
                kind: WorkflowRecord.compensationKind, payload: Array(compensation.name.utf8), parentKey: key)
            let reason = error.map { JournaledInvoker.reason($0) }
            try await journal.settle(
                [.settle(entry, as: reason.map { .failed(reason: $0) } ?? .compensated)], lease: invoker.lease(token))
            if let reason {
                invoker.logger?.error(
                    "a workflow's compensation failed; the step's effects may remain",
                    metadata: ["key": "\(key)", "step": "\(compensation.name)", "error": "\(reason)"])
            }
            progress.withLock { progress in
                progress.pending.removeFirst()
                guard let reason else { return }
                progress.failures.append("\(compensation) failed: \(reason)")
                if policy.failureMode == .stopAtFirstFailure {
                    progress.interrupt("not run: compensation stopped when \(compensation) failed")
                }
            }
        }
    }
}

/// How far a workflow's rollback got: the compensations still to run (newest first), and the
/// failures so far.
struct WorkflowRollback: Sendable {
    var pending: [WorkflowCompensation]
    var failures: [String] = []
    /// Set once the rollback is being settled: the work records nothing more.
    var closed = false

    /// Reports every pending compensation as not run, for `why`.
    mutating func interrupt(_ why: String) {
        failures += pending.map { "\($0): \(why)" }
        pending = []
    }
}
