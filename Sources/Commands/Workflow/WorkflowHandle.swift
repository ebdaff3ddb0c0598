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
    /// - Throws: ``WorkflowError/failed(key:reason:)`` with the error the run recorded;
    ///   ``CommandJournalError/unknownKey(_:)`` when no run has the key;
    ///   ``WorkflowError/undecodable(key:reason:)`` when its output does not decode as `Output`.
    public func result() async throws -> Output {
        while true {
            let seen = workflows.settlements.generation
            guard let record = try await workflows.journal.record(forKey: key) else {
                throw CommandJournalError.unknownKey(key)
            }
            switch record.status {
            case .done:
                do {
                    return try StepOutput.decode(Output.self, from: record.output ?? [], key: key)
                } catch {
                    throw WorkflowError.undecodable(key: key, reason: "its output: \(error)")
                }
            case .failed, .compensated:
                throw WorkflowError.failed(key: key, reason: record.failureReason ?? "\(record.status)")
            case .pending:
                try Task.checkCancellation()
                await workflows.settlements.wait(
                    after: seen, upTo: workflows.pollInterval, on: workflows.invoker.keeper.clock)
            }
        }
    }

    /// How far the run got: pending, done or failed; `nil` when no run has the key.
    public func status() async throws -> CommandJournalStatus? {
        try await workflows.journal.record(forKey: key)?.status
    }
}
