import Tracing

extension DurableTransaction {
    /// How a transaction settled.
    enum Settlement: Sendable, Hashable {
        case completed, compensated, failed

        /// The outcome it reports.
        var outcome: DurableOutcome {
            switch self {
            case .completed: .completed
            case .compensated: .compensated
            case .failed: .failed
            }
        }
    }

    /// Settles a transaction this worker took over (its worker stopped), from its step records:
    /// compensates it, or completes it when its recovery is ``DurableTransactionRecovery/complete``
    /// and no step failed or was compensated yet (a rollback in progress always goes on), and no
    /// operator cancelled it (``CommandJournalManagement/cancel(_:reason:)``: a cancelled one compensates).
    ///
    /// - Parameter startIfUntouched: run it from the start when no step was journaled (work
    ///   taken from a queue, which was acknowledged and must run).
    func settle(_ record: CommandJournalRecord, startIfUntouched: Bool = false) async throws -> Settlement {
        guard invoker.instruments.isOn else {
            return try await settleInJournal(record, startIfUntouched: startIfUntouched)
        }
        var attributes = spanAttributes
        attributes["behaviorkit.attempt"] = record.attempts
        return try await reporting(attributes) {
            try await settleInJournal(record, startIfUntouched: startIfUntouched)
        } outcome: { settlement in
            (settlement.outcome, timed: true)
        }
    }

    /// ``settle(_:startIfUntouched:)`` without its reports.
    private func settleInJournal(_ record: CommandJournalRecord, startIfUntouched: Bool) async throws -> Settlement {
        let (records, cancellation) = try await journaledSteps()
        let rollingBack = records.values.contains { $0.status == .failed || $0.status == .compensated }
        if (recovery == .complete || (startIfUntouched && records.isEmpty)) && !rollingBack && cancellation == nil {
            do {
                observer?(.started(name))
                _ = try await drive(records, attempt: record.attempts)
                return .completed
            } catch is TransactionError {
                return try await journal.record(forKey: key)?.status == .compensated ? .compensated : .failed
            }
        }
        return try await compensate(records, attempt: record.attempts, cause: cancellation).isEmpty
            ? .compensated : .failed
    }
}
