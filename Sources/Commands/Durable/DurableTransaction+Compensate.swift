extension DurableTransaction {
    /// Undoes, in reverse, every step that may have run — those `records` shows done or
    /// pending, and the step after the last done one when it has no record and no rollback
    /// began — each with its recorded output, writes each compensated, then settles the
    /// transaction compensated, or failed when an undo failed (naming the steps). The last
    /// step's settlement and the transaction's share one commit.
    ///
    /// The compensation is shielded from the caller's cancellation: a cancelled transaction
    /// still refunds what it charged. It stops only if the worker loses its lease (the new
    /// owner then finishes it).
    ///
    /// Each compensation's context names the rollback's cause (``DurableContext/compensationCause``):
    /// `cause` when given (a cancellation's reason), else the failed step's error as `records`
    /// show it.
    func compensate(
        _ records: [Int: CommandJournalRecord], attempt: Int, cause: String? = nil
    ) async throws -> [TransactionError.CompensationFailure] {
        let cause =
            cause ?? records.sorted { $0.key < $1.key }.first { $0.value.status == .failed }?.value.failureReason
        let shielded = Task { try await compensateInReverse(records, attempt: attempt, cause: cause) }
        return try await shielded.value
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
        _ records: [Int: CommandJournalRecord], attempt: Int, cause: String?
    ) async throws -> [TransactionError.CompensationFailure] {
        let outputs = records.compactMapValues { $0.status == .done ? $0.output : nil }
        var failures: [TransactionError.CompensationFailure] = []
        var unsaved: CommandJournalChange?
        for index in mayHaveRun(records) {
            try await invoker.keeper.check(key, token: attempt)
            if let change = unsaved { try await journal.settle([change], lease: invoker.lease(attempt)) }
            unsaved = nil
            let step = steps[index]
            let context = context(index, outputs: outputs, attempt: attempt, cause: cause)
            do {
                if let compensation = step.compensation {
                    let output = records[index]?.status == .done ? records[index]?.output : nil
                    try await compensateStep(index, context, output: output, compensation)
                }
            } catch {
                if invoker.keeper.isLost(key, token: attempt) {
                    throw CommandJournalError.leaseLost(key: key, owner: nil)
                }
                failures.append(.init(step: .init(index: index, name: step.name), error: error))
                observer?(.compensationFailed(index: index, command: step.command, error: error))
                continue
            }
            unsaved = .settle(stepEntry(index), as: .compensated)
            observer?(.compensated(index: index, command: step.command))
        }
        let settlement: CommandJournalSettlement =
            failures.isEmpty ? .compensated : .failed(reason: failures.map(\.description).joined(separator: "; "))
        try await journal.settle(
            (unsaved.map { [$0] } ?? []) + [.settle(key, as: settlement)], lease: invoker.lease(attempt))
        return failures
    }
}
