extension DurableTransaction {
    /// Runs the steps not yet done (after those `records` shows done). A step is written to the
    /// journal once it ran, settled with its output, in one commit — the last one together with
    /// the transaction — so that three steps cost four commits with the ``begin``. Until its
    /// settlement is durable the next step does not start: the first step without a record may
    /// have run, and none after it. On a failure (or a cancellation), compensates and throws a
    /// ``TransactionError``.
    func drive(_ records: [Int: CommandJournalRecord], attempt: Int) async throws -> [Int: [UInt8]] {
        var records = records
        var outputs = records.compactMapValues { $0.status == .done ? $0.output : nil }
        var rootSettled = false
        for index in steps.indices where records[index]?.status != .done {
            try await invoker.keeper.check(key, token: attempt)
            let context = context(index, outputs: outputs, attempt: attempt)
            let output: [UInt8]?
            do {
                try Task.checkCancellation()
                output = try await runStep(index, context)
            } catch {
                if invoker.keeper.isLost(key, token: attempt) {
                    throw CommandJournalError.leaseLost(key: key, owner: nil)
                }
                throw try await rollBack(after: index, error, records, attempt: attempt)
            }
            var changes: [CommandJournalChange] = [.settle(stepEntry(index), as: .done(output: output))]
            let last = steps.indices.allSatisfy { $0 == index || records[$0]?.status == .done }
            if last {
                changes.append(.settle(key, as: .done(output: nil)))
                try await invoker.keeper.settling(key, token: attempt) {
                    try await journal.settle(changes, lease: invoker.lease(attempt))
                }
            } else {
                try await journal.settle(changes, lease: invoker.lease(attempt))
            }
            rootSettled = last
            records[index] = CommandJournalRecord(sequence: 0, entry: stepEntry(index), status: .done, output: output)
            if let output { outputs[index] = output }
            observer?(.stepFinished(index: index, command: steps[index].command))
        }
        if !rootSettled {
            try await invoker.keeper.settling(key, token: attempt) {
                try await journal.settle(key, as: .done(output: nil), lease: invoker.lease(attempt))
            }
        }
        observer?(.finished(name))
        return outputs
    }

    /// Writes step `index` failed with `error`, compensates the steps before it, and returns
    /// the error to throw.
    private func rollBack(
        after index: Int, _ error: any Error, _ records: [Int: CommandJournalRecord], attempt: Int
    ) async throws -> TransactionError {
        let failed = CommandJournalRecord(
            sequence: 0, entry: stepEntry(index), status: .failed, failureReason: JournaledInvoker.reason(error))
        try await journal.settle(
            [.settle(stepEntry(index), as: .failed(reason: JournaledInvoker.reason(error)))],
            lease: invoker.lease(attempt))
        let step = TransactionError.Step(index: index, name: steps[index].name)
        observer?(.failed(step, error))
        var before = records
        before[index] = failed
        let failures = try await compensate(before, attempt: attempt)
        let failure = TransactionError(
            transaction: name, phase: .execute, failedStep: step, error: error, compensationFailures: failures)
        observer?(.rolledBack(failure))
        return failure
    }

    /// The context of step `index`.
    func context(_ index: Int, outputs: [Int: [UInt8]], attempt: Int, cause: String? = nil) -> DurableContext {
        DurableContext(
            key: stepKey(index), transactionKey: key, stepIndex: index, owner: invoker.owner, attempt: max(1, attempt),
            outputs: outputs, compensationCause: cause)
    }
}
