/// Steps run in order, all or nothing: when one fails, the completed ones are undone in
/// reverse and the transaction fails with a ``TransactionError``.
///
/// A transaction is a ``Command`` itself: undoing a completed transaction undoes its steps in
/// reverse, so it can sit in an ``UndoHistory`` or an invoker, or inside another transaction.
///
/// ```swift
/// let order = Transaction("order", steps: [reserveStock, chargeCard, sendMail])
/// do {
///     try await order.run()
/// } catch {
///     print(error)  // transaction 'order' failed at step 2 'charge card': declined
/// }
/// try await order.undo()  // send mail, charge card, reserve stock: undone in reverse
/// ```
///
/// A step that cannot be undone (``Command/canUndo`` is `false`) is skipped when rolling back.
/// For steps decided while running, use the scoped form ``transaction(_:compensation:observer:_:)``.
///
/// The rollback runs on a task of its own, shielded from the cancellation of the task that ran
/// the transaction: when a cancelled task's step throws `CancellationError`, the completed
/// steps are still undone, and the error says the transaction was cancelled and what was
/// undone. A ``CompensationPolicy`` sets retries, a backoff, a deadline and whether a failed
/// compensation stops the others:
///
/// ```swift
/// let order = Transaction("order", steps: [reserveStock, chargeCard, sendMail],
///                         compensation: CompensationPolicy(retries: 3, deadline: .seconds(30)))
/// orderTask.cancel()  // the charge throws CancellationError: the stock is released all the same
/// ```
public struct Transaction: Command {
    /// The transaction's name.
    public let name: String

    /// The steps, in the order they run.
    public let steps: [any Command]

    /// How the completed steps are undone when a step fails.
    public let compensation: CompensationPolicy

    @usableFromInline
    let observer: (@Sendable (TransactionEvent) -> Void)?

    /// Creates a transaction of `steps`; `observer` hears every ``TransactionEvent``.
    public init(
        _ name: String = "transaction", steps: [any Command], compensation: CompensationPolicy = .default,
        observer: (@Sendable (TransactionEvent) -> Void)? = nil
    ) {
        self.name = name
        self.steps = steps
        self.compensation = compensation
        self.observer = observer
    }

    /// Whether a step can be undone (an empty transaction can: there is nothing to do).
    public var canUndo: Bool { steps.isEmpty || steps.contains { $0.canUndo } }

    /// Runs the steps in order; when one fails, undoes the completed ones in reverse.
    ///
    /// - Throws: ``TransactionError`` naming the failed step, its error and every failed undo.
    @inlinable
    public func run() async throws(TransactionError) {
        observer?(.started(name))
        var completed = 0
        do {
            while completed < steps.count {
                try await steps[completed].execute()
                if let observer { observer(.stepFinished(index: completed, command: steps[completed])) }
                completed += 1
            }
        } catch {
            throw await rollBack(failedAt: completed, error: error)
        }
        observer?(.finished(name))
    }

    /// Runs the steps: the same as ``run()``.
    @inlinable
    public func execute() async throws {
        try await run()
    }

    /// Undoes the steps in reverse. When one fails, the steps already undone are done again,
    /// so that the transaction stays whole.
    ///
    /// - Throws: ``TransactionError`` with phase ``TransactionError/Phase/undo``.
    public func undo() async throws {
        try await revert()
    }

    /// Undoes the steps in reverse; see ``undo()``.
    public func revert() async throws(TransactionError) {
        var index = steps.count - 1
        do {
            while index >= 0 {
                if steps[index].canUndo { try await steps[index].undo() }
                index -= 1
            }
        } catch {
            var failures: [TransactionError.CompensationFailure] = []
            for redo in (index + 1)..<steps.count where steps[redo].canUndo {
                do {
                    try await steps[redo].execute()
                } catch let redoError {
                    failures.append(.init(step: .init(index: redo, name: steps[redo].name), error: redoError))
                }
            }
            throw TransactionError(
                transaction: name, phase: .undo, failedStep: .init(index: index, name: steps[index].name),
                error: error, compensationFailures: failures)
        }
    }

    @usableFromInline
    func rollBack(failedAt index: Int, error: any Error) async -> TransactionError {
        let cancelled = Task.isCancelled || error is CancellationError
        let step = TransactionError.Step(index: index, name: steps[index].name)
        observer?(.failed(step, error))
        let report = await Rollback.run(steps[..<index], policy: compensation, observer: observer)
        let failure = TransactionError(
            transaction: name, phase: .execute, failedStep: step, error: error, compensationFailures: report.failures,
            isCancelled: cancelled, compensatedSteps: report.compensated)
        observer?(.rolledBack(failure))
        return failure
    }
}
