import BehaviorKitSync

/// A run of a workflow, by its key: ``result()`` waits for its outcome.
///
/// ```swift
/// let handle = try await workflows.start(checkout, key: "order-42", input: order)
/// let receipt = try await handle.result()
/// ```
public struct WorkflowHandle<Output: Codable & Sendable>: Sendable {
    /// The run's key.
    public let key: String
    let workflows: Workflows

    /// Waits until the run settled and answers its output, woken when a worker of this
    /// process settles it, and looking every ``Workflows/pollInterval`` for one elsewhere.
    ///
    /// - Throws: ``WorkflowError/failed(key:reason:)`` with the error the run recorded (or
    ///   naming the compensations that failed); ``WorkflowError/compensated(key:reason:)`` when
    ///   its finished steps were compensated, with why it rolled back;
    ///   ``CommandJournalError/unknownKey(_:)`` when no run has the key;
    ///   ``WorkflowError/undecodable(key:reason:)`` when its output does not decode as `Output`.
    public func result() async throws -> Output {
        while true {
            let seen = workflows.settlements.generation
            guard let record = try await workflows.journal.record(forKey: key) else {
                throw CommandJournalError.unknownKey(key)
            }
            if record.isSettled { return try await Self.output(of: record, in: workflows.journal) }
            try Task.checkCancellation()
            await workflows.settlements.wait(
                after: seen, upTo: workflows.pollInterval, on: workflows.invoker.keeper.clock)
        }
    }

    /// The output of the settled run `record`, from `journal`.
    static func output(of record: CommandJournalRecord, in journal: any CommandJournal) async throws -> Output {
        switch record.status {
        case .done, .pending: try await output(record.id, .done(output: record.output), in: journal)
        case .compensated: try await output(record.id, .compensated, in: journal)
        case .failed: throw WorkflowError.failed(key: record.id, reason: record.failureReason ?? "\(record.status)")
        }
    }

    /// The output of the run `key`, settled as `settlement`; why a compensated run rolled back
    /// is read from `journal`.
    ///
    /// - Throws: ``WorkflowError/failed(key:reason:)`` for a run that failed;
    ///   ``WorkflowError/compensated(key:reason:)`` for a run compensated;
    ///   ``WorkflowError/undecodable(key:reason:)`` when its output does not decode as `Output`.
    static func output(
        _ key: String, _ settlement: CommandJournalSettlement, in journal: any CommandJournal
    ) async throws -> Output {
        switch settlement {
        case .done(let output):
            do {
                return try StepOutput.decode(Output.self, from: output ?? [], key: key)
            } catch {
                throw WorkflowError.undecodable(key: key, reason: "its output: \(error)")
            }
        case .failed(let reason):
            throw WorkflowError.failed(key: key, reason: reason)
        case .compensated:
            let rollback = try await journal.record(forKey: WorkflowRecord.rollbackKey(key))
            throw WorkflowError.compensated(key: key, reason: rollback?.failureReason ?? "its steps were compensated")
        }
    }

    /// How far the run got: pending, done or failed; `nil` when no run has the key.
    public func status() async throws -> CommandJournalStatus? {
        try await workflows.journal.record(forKey: key)?.status
    }
}
