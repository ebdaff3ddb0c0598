/// What to do with a command that a crash left pending (it may have run, or not).
public enum CommandRecoveryAction: Sendable, Hashable {
    /// Execute it again and mark it done (safe under its idempotency key).
    case replay
    /// Do not run it; mark it failed with the reason.
    case markFailed(String)
    /// Leave it pending, for a later start or a person to decide.
    case leavePending
}

extension JournaledInvoker {
    /// Settles every unfinished record, in sequence order: commands are replayed (or handed to
    /// `policy`), half-done durable transactions compensated in reverse (or completed, where
    /// they chose forward recovery). A record that cannot be decoded is reported and kept
    /// pending; recovery goes on with the others.
    ///
    /// ```swift
    /// let report = try await invoker.recover { record in
    ///     record.entry.kind == "mail.send" ? .markFailed("not resent after a crash") : .replay
    /// }
    /// print(report)  // recovery: 2 replayed, 1 compensated, 0 completed, 0 failed, 1 unreadable
    /// ```
    ///
    /// - Throws: the journal's error when it cannot be read or written.
    public func recover(
        policy: (CommandJournalRecord) async -> CommandRecoveryAction = { _ in .replay }
    ) async throws -> CommandRecoveryReport {
        var report = CommandRecoveryReport()
        for record in try await journal.unfinished() where record.entry.parentKey == nil {
            let key = record.entry.idempotencyKey
            if record.entry.kind == DurableTransaction.journalKind {
                try await settleTransaction(record, into: &report)
                continue
            }
            let command: any Command
            do {
                command = try registry.command(for: record.entry)
            } catch {
                report.unreadable.append(error)
                continue
            }
            switch await policy(record) {
            case .replay:
                do {
                    try await command.execute()
                    try await journal.markDone(key)
                    report.replayed.append(key)
                } catch let error where !(error is CommandJournalError) {
                    try await journal.markFailed(key, reason: "\(error)")
                    report.failed.append(key)
                }
            case .markFailed(let reason):
                try await journal.markFailed(key, reason: reason)
                report.failed.append(key)
            case .leavePending:
                report.leftPending.append(key)
            }
        }
        return report
    }

    private func settleTransaction(
        _ record: CommandJournalRecord, into report: inout CommandRecoveryReport
    )
        async throws
    {
        let key = record.entry.idempotencyKey
        let transaction: DurableTransaction
        do {
            transaction = try rebuild(record)
        } catch {
            report.unreadable.append(error)
            return
        }
        switch try await transaction.settle() {
        case .completed: report.completedTransactions.append(key)
        case .compensated: report.compensatedTransactions.append(key)
        case .failed: report.failed.append(key)
        }
    }

    private func rebuild(_ record: CommandJournalRecord) throws(CommandRegistryError) -> DurableTransaction {
        let key = record.entry.idempotencyKey
        let plan = try DurableTransactionPlan(record.entry)
        var steps: [DurableStep] = []
        for (index, step) in plan.steps.enumerated() {
            let entry = CommandJournalEntry(
                idempotencyKey: "\(key)/\(index)", kind: step.kind, payload: step.payload, parentKey: key)
            steps.append(DurableStep(kind: step.kind, payload: step.payload, command: try registry.command(for: entry)))
        }
        return DurableTransaction(plan.name, key: key, recovery: plan.recovery, journal: journal, steps: steps)
    }
}
