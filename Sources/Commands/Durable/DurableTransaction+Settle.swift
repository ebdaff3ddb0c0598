extension DurableTransaction {
    /// How a transaction settled.
    enum Settlement: Sendable, Hashable {
        case completed, compensated, failed
    }

    /// Settles a transaction this worker took over (its worker stopped), from its step records:
    /// compensates it, or completes it when its recovery is ``DurableTransactionRecovery/complete``
    /// and no step failed or was compensated yet (a rollback in progress always goes on).
    ///
    /// - Parameter startIfUntouched: run it from the start when no step was journaled (work
    ///   taken from a queue, which was acknowledged and must run).
    func settle(_ record: CommandJournalRecord, startIfUntouched: Bool = false) async throws -> Settlement {
        let records = try await stepRecords()
        let rollingBack = records.values.contains { $0.status == .failed || $0.status == .compensated }
        if (recovery == .complete || (startIfUntouched && records.isEmpty)) && !rollingBack {
            do {
                observer?(.started(name))
                _ = try await drive(records, attempt: record.attempts)
                return .completed
            } catch is TransactionError {
                return try await journal.record(forKey: key)?.status == .compensated ? .compensated : .failed
            }
        }
        return try await compensate(records, attempt: record.attempts).isEmpty ? .compensated : .failed
    }
}
