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
/// For steps decided while running, use the scoped form ``transaction(_:observer:_:)``.
public struct Transaction: Command {
    /// The transaction's name.
    public let name: String

    /// The steps, in the order they run.
    public let steps: [any Command]

    @usableFromInline
    let observer: (@Sendable (TransactionEvent) -> Void)?

    /// Creates a transaction of `steps`; `observer` hears every ``TransactionEvent``.
    public init(
        _ name: String = "transaction", steps: [any Command],
        observer: (@Sendable (TransactionEvent) -> Void)? = nil
    ) {
        self.name = name
        self.steps = steps
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
        let step = TransactionError.Step(index: index, name: steps[index].name)
        observer?(.failed(step, error))
        let failures = await Self.compensate(steps[..<index], observer: observer)
        let failure = TransactionError(
            transaction: name, phase: .execute, failedStep: step, error: error, compensationFailures: failures)
        observer?(.rolledBack(failure))
        return failure
    }

    /// Undoes `completed` in reverse, skipping steps that cannot be undone, and returns the
    /// undos that failed (a failure does not stop the others).
    static func compensate(
        _ completed: ArraySlice<any Command>, observer: (@Sendable (TransactionEvent) -> Void)?
    ) async -> [TransactionError.CompensationFailure] {
        var failures: [TransactionError.CompensationFailure] = []
        for index in completed.indices.reversed() where completed[index].canUndo {
            let step = completed[index]
            do {
                try await step.undo()
                observer?(.compensated(index: index, command: step))
            } catch {
                failures.append(.init(step: .init(index: index, name: step.name), error: error))
                observer?(.compensationFailed(index: index, command: step, error: error))
            }
        }
        return failures
    }
}
