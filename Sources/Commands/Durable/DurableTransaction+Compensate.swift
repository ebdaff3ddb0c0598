extension DurableTransaction {
    /// Undoes, in reverse, every step `records` shows done or pending (a pending step may have
    /// run), each with its recorded output, marks each compensated, then settles the
    /// transaction compensated, or failed when an undo failed (naming the steps).
    ///
    /// The compensation is shielded from the caller's cancellation: a cancelled transaction
    /// still refunds what it charged. It stops only if the worker loses its lease (the new
    /// owner then finishes it).
    func compensate(
        _ records: [Int: CommandJournalRecord], attempt: Int
    ) async throws -> [TransactionError.CompensationFailure] {
        let shielded = Task { try await compensateInReverse(records, attempt: attempt) }
        return try await shielded.value
    }

    private func compensateInReverse(
        _ records: [Int: CommandJournalRecord], attempt: Int
    ) async throws -> [TransactionError.CompensationFailure] {
        let outputs = records.compactMapValues { $0.status == .done ? $0.output : nil }
        var failures: [TransactionError.CompensationFailure] = []
        for index in records.keys.sorted(by: >) where index < steps.count {
            guard let record = records[index], record.status == .done || record.status == .pending else { continue }
            try await invoker.keeper.check(key)
            let step = steps[index]
            let context = context(index, outputs: outputs, attempt: attempt)
            do {
                if let compensation = step.compensation {
                    try await DurableContext.$current.withValue(context) {
                        try await compensation(context, record.status == .done ? record.output : nil)
                    }
                }
            } catch {
                if invoker.keeper.isLost(key) { throw CommandJournalError.leaseLost(key: key, owner: nil) }
                failures.append(.init(step: .init(index: index, name: step.name), error: error))
                observer?(.compensationFailed(index: index, command: step.command, error: error))
                continue
            }
            try await journal.settle(stepKey(index), as: .compensated, lease: invoker.lease)
            observer?(.compensated(index: index, command: step.command))
        }
        let settlement: CommandJournalSettlement =
            failures.isEmpty ? .compensated : .failed(reason: failures.map(\.description).joined(separator: "; "))
        try await journal.settle(key, as: settlement, lease: invoker.lease)
        return failures
    }
}
