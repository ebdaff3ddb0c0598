import BehaviorKitSync

extension DurableTransaction {
    /// Undoes, in reverse, every step that may have run — those `records` shows done or
    /// pending, and the step after the last done one when it has no record and no rollback
    /// began — each with its recorded output, writes each compensated, then settles the
    /// transaction compensated, or failed when an undo failed (naming the steps). The last
    /// step's settlement and the transaction's share one commit.
    ///
    /// The ``compensation`` policy applies as it does to a ``Transaction``: a failing
    /// compensation is tried again after its backoff, up to the policy's retries; under
    /// ``CompensationPolicy/FailureMode/stopAtFirstFailure`` the steps after a failure are left
    /// (``CompensationInterruption/stoppedAtFailure(_:)``); once the deadline passes, the
    /// compensation running is cancelled and the steps not undone are reported
    /// (``CompensationInterruption/deadlinePassed(_:)``). The failed record's reason names
    /// each step not undone, and why.
    ///
    /// The compensation is shielded from the caller's cancellation: a cancelled transaction
    /// still refunds what it charged. It stops only if the worker loses its lease (the new
    /// owner then finishes it), or at the policy's deadline.
    ///
    /// Each compensation's context names the rollback's cause (``DurableContext/compensationCause``):
    /// `cause` when given (a cancellation's reason), else the failed step's error as `records`
    /// show it.
    func compensate(
        _ records: [Int: CommandJournalRecord], attempt: Int, cause: String? = nil
    ) async throws -> [TransactionError.CompensationFailure] {
        let cause =
            cause ?? records.sorted { $0.key < $1.key }.first { $0.value.status == .failed }?.value.failureReason
        let progress = LockedValue(CompensationProgress(pending: mayHaveRun(records)))
        let finished: Void? = try await compensation.withinDeadline {
            try await self.compensateInReverse(records, attempt: attempt, cause: cause, progress)
        }
        let (failures, unsaved) = progress.withLock { progress in
            if finished == nil, let deadline = compensation.deadline {
                progress.interrupt(.deadlinePassed(deadline)) { TransactionError.Step(index: $0, name: steps[$0].name) }
            }
            progress.closed = true
            return (progress.failures, progress.unsaved)
        }
        let settlement: CommandJournalSettlement =
            failures.isEmpty ? .compensated : .failed(reason: failures.map(\.description).joined(separator: "; "))
        // A renewal from now on may find it settled: not lost.
        try await invoker.keeper.settling(key, token: attempt) {
            try await journal.settle(
                (unsaved.map { [$0] } ?? []) + [.settle(key, as: settlement)], lease: invoker.lease(attempt))
        }
        return failures
    }

    /// The steps that may have run, by index: done or pending ones, and the one in flight.
    func mayHaveRun(_ records: [Int: CommandJournalRecord]) -> [Int] {
        var indices = records.filter { $0.value.status == .done || $0.value.status == .pending }.map(\.key)
        let rollingBack = records.values.contains { $0.status == .failed || $0.status == .compensated }
        if !rollingBack, let inFlight = steps.indices.first(where: { records[$0]?.status != .done }),
            records[inFlight] == nil
        {
            indices.append(inFlight)
        }
        return indices.filter { $0 < steps.count }.sorted(by: >)
    }

    private func compensateInReverse(
        _ records: [Int: CommandJournalRecord], attempt: Int, cause: String?,
        _ progress: LockedValue<CompensationProgress>
    ) async throws {
        let outputs = records.compactMapValues { $0.status == .done ? $0.output : nil }
        while let index = progress.withLock({ $0.closed ? nil : $0.pending.first }) {
            try await invoker.keeper.check(key, token: attempt)
            if let change = progress.withLock({ $0.takeUnsaved() }) {
                try await journal.settle([change], lease: invoker.lease(attempt))
            }
            let step = steps[index]
            let context = context(index, outputs: outputs, attempt: attempt, cause: cause)
            let output = records[index]?.status == .done ? records[index]?.output : nil
            let error = try await undo(index, context, output: output, progress)
            let stepName = TransactionError.Step(index: index, name: step.name)
            let recorded = progress.withLock { progress -> Bool in
                guard !progress.closed, progress.pending.first == index else { return false }
                progress.pending.removeFirst()
                guard let error else {
                    progress.unsaved = .settle(stepEntry(index), as: .compensated)
                    return true
                }
                progress.failures.append(.init(step: stepName, error: error))
                if compensation.failureMode == .stopAtFirstFailure {
                    progress.interrupt(.stoppedAtFailure(stepName)) { .init(index: $0, name: steps[$0].name) }
                }
                return true
            }
            guard recorded else { return }
            if let error {
                observer?(.compensationFailed(index: index, command: step.command, error: error))
            } else {
                observer?(.compensated(index: index, command: step.command))
            }
        }
    }

    /// Runs step `index`'s compensation, retrying it as the policy says; returns the last
    /// error, or `nil` when it was undone (or has nothing to undo). Throws when the worker lost
    /// its lease meanwhile.
    private func undo(
        _ index: Int, _ context: DurableContext, output: [UInt8]?, _ progress: LockedValue<CompensationProgress>
    ) async throws -> (any Error)? {
        guard let undo = steps[index].compensation else { return nil }
        return try await compensation.undo(
            steps[index].command, at: index, observer: observer,
            check: { _ throws(CommandJournalError) in
                if invoker.keeper.isLost(key, token: context.attempt) {
                    throw CommandJournalError.leaseLost(key: key, owner: nil)
                }
            },
            stopped: { progress.withLock { $0.closed } }
        ) {
            try await compensateStep(index, context, output: output, undo)
        }
    }
}

/// How far a durable rollback got: the steps still to undo (newest first), the failures, and
/// the compensated mark not yet written (it joins the next write).
struct CompensationProgress: Sendable {
    var pending: [Int]
    var failures: [TransactionError.CompensationFailure] = []
    var unsaved: CommandJournalChange?
    /// Set once the rollback is being settled: the work records nothing more.
    var closed = false

    init(pending: [Int]) { self.pending = pending }

    mutating func takeUnsaved() -> CommandJournalChange? {
        defer { unsaved = nil }
        return unsaved
    }

    /// Reports every pending step as not undone, for `interruption`.
    mutating func interrupt(_ interruption: CompensationInterruption, step: (Int) -> TransactionError.Step) {
        failures += pending.map { .init(step: step($0), error: interruption) }
        pending = []
    }
}
