import Logging
import Tracing

/// What to do with a command that a stopped worker left pending (it may have run, or not).
public enum CommandRecoveryAction: Sendable, Hashable {
    /// Execute it again and mark it done (safe under its idempotency key).
    case replay
    /// Do not run it; mark it failed with the reason.
    case markFailed(String)
    /// Leave it pending, for a later start or a person to decide; no worker takes it up again
    /// for a lease's duration.
    case leavePending
}

extension JournaledInvoker {
    /// Settles the work that stopped workers left unfinished — records run by their callers
    /// whose owners' leases expired — claiming each atomically, oldest first: commands are
    /// replayed (or handed to `policy`), half-done durable transactions compensated in reverse
    /// (or completed, where they chose forward recovery). A live worker's work is never
    /// touched, and two recoveries at once (in one process or many) never settle one record
    /// twice. A record that cannot be decoded is reported and left for a worker that can.
    ///
    /// Work on queues is not recovered here: ``QueueWorker``s take it over.
    ///
    /// ```swift
    /// let report = try await invoker.recover { record in
    ///     record.entry.kind == "mail.send" ? .markFailed("not resent after a crash") : .replay
    /// }
    /// print(report)  // recovery: 2 replayed, 1 compensated, 0 completed, 0 failed, 0 left pending, 1 unreadable
    /// ```
    ///
    /// - Parameters:
    ///   - deadOwner: a worker known to have stopped (a supervisor saw its process exit): its
    ///     work is taken over at once, without waiting for its leases to expire.
    ///   - policy: what to do with each unfinished command (not a transaction: those follow their
    ///     ``DurableTransactionRecovery``); by default, run it again.
    /// - Throws: the journal's error when it cannot be read or written.
    public func recover(
        takingOverFrom deadOwner: String? = nil,
        policy: @Sendable (CommandJournalRecord) async -> CommandRecoveryAction = { _ in .replay }
    ) async throws -> CommandRecoveryReport {
        guard instruments.isOn else { return try await recoverRecords(takingOverFrom: deadOwner, policy: policy) }
        var attributes = SpanAttributes()
        if let deadOwner { attributes["behaviorkit.dead_owner"] = deadOwner }
        return try await instruments.withSpan("behaviorkit.recovery", attributes) { span in
            let started = keeper.now
            instruments.logger?.debug(
                "recovery started", metadata: deadOwner.map { ["dead_owner": "\($0)"] } ?? [:])
            do {
                let report = try await recoverRecords(takingOverFrom: deadOwner, policy: policy)
                instruments.recoveryEnded(report, duration: keeper.now - started, span: span)
                return report
            } catch {
                instruments.logger?.error("recovery stopped on a journal error", metadata: ["error": "\(error)"])
                throw error
            }
        }
    }

    /// ``recover(takingOverFrom:policy:)`` without its span and summary.
    private func recoverRecords(
        takingOverFrom deadOwner: String?, policy: @Sendable (CommandJournalRecord) async -> CommandRecoveryAction
    ) async throws -> CommandRecoveryReport {
        var report = CommandRecoveryReport()
        var seen: Set<String> = []
        while true {
            let sent = keeper.now
            let claim = try await keeper.claiming { takingOver in
                try await journal.claim(
                    16, from: nil, concurrency: nil, takingOverFrom: deadOwner ?? (takingOver ? owner : nil),
                    lease: lease)
            }
            let fresh = claim.records.filter { seen.insert($0.id).inserted }
            keeper.adopt(claim.records, confirmedAt: sent)
            for record in claim.records where !fresh.contains(record) {
                try await giveBack(record)
            }
            if fresh.isEmpty { return report }
            for (position, record) in fresh.enumerated() {
                let from = claim.previousOwners[record.id]
                do {
                    try await settle(record, from: from, policy: policy, into: &report)
                } catch let error as CommandJournalError {
                    if case .leaseLost = error { instruments.recovered(record, .leaseLost, from: from) }
                    guard case .leaseLost = error else {
                        for left in fresh.dropFirst(position + 1) { try? await giveBack(left) }
                        throw error
                    }
                } catch {
                    for left in fresh.dropFirst(position + 1) { try? await giveBack(left) }
                    throw error
                }
            }
        }
    }

    /// Releases the attempt at `record` for a lease's duration and forgets it.
    func giveBack(_ record: CommandJournalRecord) async throws {
        keeper.drop(record.id, token: record.attempts)
        try await journal.release(record.id, lease: lease.fenced(by: record), after: lease.duration)
    }

    private func settle(
        _ record: CommandJournalRecord, from previousOwner: String?,
        policy: @Sendable (CommandJournalRecord) async -> CommandRecoveryAction,
        into report: inout CommandRecoveryReport
    ) async throws {
        let key = record.id
        if record.entry.kind == DurableTransaction.journalKind {
            let transaction: DurableTransaction
            do {
                transaction = try rebuild(record)
            } catch {
                report.unreadable.append(error)
                instruments.recovered(record, .unreadable, from: previousOwner, error: error)
                try await giveBack(record)
                return
            }
            switch try await keeper.hold(key, token: record.attempts, { try await transaction.settle(record) }) {
            case .completed:
                report.completedTransactions.append(key)
                instruments.recovered(record, .completed, from: previousOwner)
            case .compensated:
                report.compensatedTransactions.append(key)
                instruments.recovered(record, .compensated, from: previousOwner)
            case .failed:
                report.failed.append(key)
                instruments.recovered(record, .failed, from: previousOwner)
            }
            return
        }
        let step: DurableStep
        do {
            step = try registry.step(for: record.entry)
        } catch {
            report.unreadable.append(error)
            instruments.recovered(record, .unreadable, from: previousOwner, error: error)
            try await giveBack(record)
            return
        }
        switch await policy(record) {
        case .replay:
            do {
                _ = try await keeper.hold(key, token: record.attempts) { try await self.execute(step, record) }
                report.replayed.append(key)
                instruments.recovered(record, .replayed, from: previousOwner)
            } catch let error where !(error is CommandJournalError) {
                report.failed.append(key)
                instruments.recovered(record, .failed, from: previousOwner, error: error)
            }
        case .markFailed(let reason):
            try await keeper.hold(key, token: record.attempts) {
                try await self.journal.settle(key, as: .failed(reason: reason), lease: self.lease.fenced(by: record))
            }
            report.failed.append(key)
            instruments.recovered(record, .failed, from: previousOwner, reason: reason)
        case .leavePending:
            try await giveBack(record)
            report.leftPending.append(key)
            instruments.recovered(record, .leftPending, from: previousOwner)
        }
    }

    /// The durable transaction a record holds, with its steps from the registry.
    func rebuild(_ record: CommandJournalRecord) throws(CommandRegistryError) -> DurableTransaction {
        let key = record.id
        let plan = try DurableTransactionPlan(record.entry)
        var steps: [DurableStep] = []
        for (index, step) in plan.steps.enumerated() {
            let entry = CommandJournalEntry(
                idempotencyKey: "\(key)/\(index)", kind: step.kind, payload: step.payload, parentKey: key)
            steps.append(try registry.step(for: entry))
        }
        return DurableTransaction(plan.name, key: key, recovery: plan.recovery, invoker: self, steps: steps)
    }
}
