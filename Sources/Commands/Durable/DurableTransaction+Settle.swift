extension DurableTransaction {
    /// How a transaction settled.
    enum Settlement: Sendable, Hashable {
        case completed, compensated, failed
    }

    /// Runs the steps not yet done (after those `existing` says are done), then marks the
    /// transaction done; on a failure, compensates and throws.
    func drive(existing: [Int: CommandJournalRecord]) async throws {
        for index in steps.indices {
            if existing[index]?.status == .done { continue }
            let stepKey = "\(key)/\(index)"
            _ = try await journal.append(stepEntry(index))
            do {
                try await steps[index].command.execute()
            } catch {
                try await journal.markFailed(stepKey, reason: "\(error)")
                let step = TransactionError.Step(index: index, name: steps[index].command.name)
                observer?(.failed(step, error))
                var records = existing
                for done in 0..<index { records[done] = records[done] ?? placeholder(done, .done) }
                let failures = try await compensate(records)
                let failure = TransactionError(
                    transaction: name, phase: .execute, failedStep: step, error: error,
                    compensationFailures: failures)
                observer?(.rolledBack(failure))
                throw failure
            }
            try await journal.markDone(stepKey)
            observer?(.stepFinished(index: index, command: steps[index].command))
        }
        try await journal.markDone(key)
        observer?(.finished(name))
    }

    /// Undoes, in reverse, every step `records` shows done or pending (a pending step may have
    /// run), marks each compensated, then marks the transaction compensated, or failed when an
    /// undo failed (naming the steps).
    func compensate(_ records: [Int: CommandJournalRecord]) async throws -> [TransactionError.CompensationFailure] {
        var failures: [TransactionError.CompensationFailure] = []
        for index in records.keys.sorted(by: >) where index < steps.count {
            guard let status = records[index]?.status, status == .done || status == .pending else { continue }
            let step = steps[index].command
            do {
                if step.canUndo { try await step.undo() }
                try await journal.markCompensated("\(key)/\(index)")
                observer?(.compensated(index: index, command: step))
            } catch {
                failures.append(.init(step: .init(index: index, name: step.name), error: error))
                observer?(.compensationFailed(index: index, command: step, error: error))
            }
        }
        if failures.isEmpty {
            try await journal.markCompensated(key)
        } else {
            try await journal.markFailed(key, reason: failures.map(\.description).joined(separator: "; "))
        }
        return failures
    }

    /// Settles a transaction that a crash left pending, from its step records: compensates it,
    /// or completes it when its recovery is ``DurableTransactionRecovery/complete`` and no step
    /// failed or was compensated yet (a rollback in progress always goes on).
    func settle() async throws -> Settlement {
        let records = try await stepRecords()
        let rollingBack = records.values.contains { $0.status == .failed || $0.status == .compensated }
        if recovery == .complete && !rollingBack {
            do {
                try await drive(existing: records)
                return .completed
            } catch is TransactionError {
                return try await journal.record(forKey: key)?.status == .compensated ? .compensated : .failed
            }
        }
        return try await compensate(records).isEmpty ? .compensated : .failed
    }

    /// The journaled steps by index.
    func stepRecords() async throws -> [Int: CommandJournalRecord] {
        var records: [Int: CommandJournalRecord] = [:]
        for record in try await journal.records(parentKey: key) {
            if let index = Int(record.entry.idempotencyKey.dropFirst(key.count + 1)) { records[index] = record }
        }
        return records
    }

    private func placeholder(_ index: Int, _ status: CommandJournalStatus) -> CommandJournalRecord {
        CommandJournalRecord(sequence: 0, entry: stepEntry(index), status: status)
    }
}
