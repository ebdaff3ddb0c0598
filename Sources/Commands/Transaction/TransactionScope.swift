/// Runs `body` as a transaction: each step it takes through its ``TransactionScope`` is undone
/// in reverse if a later step, or the body itself, fails.
///
/// The scoped form suits steps decided while running, and values passed from one step to the
/// next (as GRDB's `inTransaction` suits SQL):
///
/// ```swift
/// let receipt = try await transaction("checkout") { step in
///     try await step(ReserveStock(order))
///     let payment = try await step("charge card") {
///         try await bank.charge(order.total)
///     } compensate: { payment in
///         try await bank.refund(payment)
///     }
///     return Receipt(order, payment)
/// }
/// ```
///
/// The rollback follows `compensation` (retries, backoff, deadline, whether a failure stops the
/// others) and is shielded from the cancellation of the calling task, as ``Transaction``'s is.
///
/// A step failure that the body catches and handles is not the transaction's failure: the
/// error names a step only when the body throws that step's error.
///
/// - Returns: what `body` returns.
/// - Throws: ``TransactionError`` naming the failed step (`nil` when the body threw between
///   steps), its error, and every undo that failed.
public func transaction<Result>(
    _ name: String = "transaction",
    compensation: CompensationPolicy = .default,
    observer: (@Sendable (TransactionEvent) -> Void)? = nil,
    _ body: (TransactionScope) async throws -> Result
) async throws(TransactionError) -> Result {
    let scope = TransactionScope(name: name, compensation: compensation, observer: observer)
    return try await scope.run(body)
}

/// The steps taken so far in a scoped ``transaction(_:compensation:observer:_:)``; call it to
/// take a step.
public final class TransactionScope {
    /// The transaction's name.
    public internal(set) var name: String

    let compensation: CompensationPolicy

    let observer: (@Sendable (TransactionEvent) -> Void)?

    /// The steps that finished, in order.
    public internal(set) var completedSteps: [any Command] = []

    /// The last step that failed and what it threw, until the next step starts.
    var lastFailure: (step: TransactionError.Step, error: any Error)?

    /// Called after each step finishes (an ``UndoHistory`` group counts its edits with it).
    var onFinished: (() -> Void)?

    init(name: String, compensation: CompensationPolicy = .default, observer: (@Sendable (TransactionEvent) -> Void)?) {
        self.name = name
        self.compensation = compensation
        self.observer = observer
    }

    /// The finished steps as one transaction: undoing it undoes them in reverse.
    public var completedTransaction: Transaction {
        Transaction(name, steps: completedSteps)
    }

    /// Executes `command` as the next step.
    public func callAsFunction(_ command: some Command) async throws {
        lastFailure = nil
        do {
            try await command.execute()
        } catch {
            lastFailure = (TransactionError.Step(index: completedSteps.count, name: command.name), error)
            throw error
        }
        finished(command)
    }

    /// Runs `run` as the next step, named `name`, and returns its value; if the transaction
    /// fails later, `compensate` is handed that value to undo the step.
    public func callAsFunction<Value: Sendable>(
        _ name: String,
        run: @escaping @Sendable () async throws -> Value,
        compensate: @escaping @Sendable (Value) async throws -> Void
    ) async throws -> Value {
        let step = ValueStep(name: name, run: run, compensate: compensate)
        let value: Value
        lastFailure = nil
        do {
            value = try await step.perform()
        } catch {
            lastFailure = (TransactionError.Step(index: completedSteps.count, name: name), error)
            throw error
        }
        finished(step)
        return value
    }

    /// Runs a nested transaction as the next step: it rolls itself back if it fails, and is
    /// undone as one step if a later step of this transaction fails.
    public func transaction<Result>(
        _ name: String, _ body: (TransactionScope) async throws -> Result
    ) async throws -> Result {
        let inner = TransactionScope(name: name, compensation: compensation, observer: observer)
        lastFailure = nil
        do {
            let result = try await inner.run(body)
            finished(inner.completedTransaction)
            return result
        } catch {
            lastFailure = (TransactionError.Step(index: completedSteps.count, name: name), error)
            throw error
        }
    }

    func finished(_ command: any Command) {
        observer?(.stepFinished(index: completedSteps.count, command: command))
        completedSteps.append(command)
        onFinished?()
    }

    func run<Result>(_ body: (TransactionScope) async throws -> Result) async throws(TransactionError) -> Result {
        observer?(.started(name))
        do {
            let result = try await body(self)
            observer?(.finished(name))
            return result
        } catch {
            throw await rollBack(error)
        }
    }

    /// Undoes the completed steps in reverse, shielded from cancellation, and makes the error.
    /// The step blamed is the one whose error the body threw, if any.
    func rollBack(_ error: any Error) async -> TransactionError {
        let cancelled = Task.isCancelled || error is CancellationError
        let failedStep = lastFailure.flatMap { errorsMatch($0.error, error) ? $0.step : nil }
        observer?(.failed(failedStep, error))
        let report = await Rollback.run(completedSteps[...], policy: compensation, observer: observer)
        let failure = TransactionError(
            transaction: name, phase: .execute, failedStep: failedStep, error: error,
            compensationFailures: report.failures, isCancelled: cancelled, compensatedSteps: report.compensated)
        completedSteps.removeAll()
        observer?(.rolledBack(failure))
        return failure
    }
}
