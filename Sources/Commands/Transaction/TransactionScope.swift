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
/// - Returns: what `body` returns.
/// - Throws: ``TransactionError`` naming the failed step (`nil` when the body threw between
///   steps), its error, and every undo that failed.
public func transaction<Result>(
    _ name: String = "transaction",
    observer: (@Sendable (TransactionEvent) -> Void)? = nil,
    _ body: (TransactionScope) async throws -> Result
) async throws(TransactionError) -> Result {
    let scope = TransactionScope(name: name, observer: observer)
    return try await scope.run(body)
}

/// The steps taken so far in a scoped ``transaction(_:observer:_:)``; call it to take a step.
public final class TransactionScope {
    /// The transaction's name.
    public let name: String

    let observer: (@Sendable (TransactionEvent) -> Void)?

    /// The steps that finished, in order.
    public private(set) var completedSteps: [any Command] = []

    var failedStep: TransactionError.Step?

    init(name: String, observer: (@Sendable (TransactionEvent) -> Void)?) {
        self.name = name
        self.observer = observer
    }

    /// The finished steps as one transaction: undoing it undoes them in reverse.
    public var completedTransaction: Transaction {
        Transaction(name, steps: completedSteps)
    }

    /// Executes `command` as the next step.
    public func callAsFunction(_ command: some Command) async throws {
        do {
            try await command.execute()
        } catch {
            failedStep = TransactionError.Step(index: completedSteps.count, name: command.name)
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
        do {
            value = try await step.perform()
        } catch {
            failedStep = TransactionError.Step(index: completedSteps.count, name: name)
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
        let inner = TransactionScope(name: name, observer: observer)
        do {
            let result = try await inner.run(body)
            finished(inner.completedTransaction)
            return result
        } catch {
            failedStep = TransactionError.Step(index: completedSteps.count, name: name)
            throw error
        }
    }

    func finished(_ command: any Command) {
        observer?(.stepFinished(index: completedSteps.count, command: command))
        completedSteps.append(command)
    }

    func run<Result>(_ body: (TransactionScope) async throws -> Result) async throws(TransactionError) -> Result {
        observer?(.started(name))
        do {
            let result = try await body(self)
            observer?(.finished(name))
            return result
        } catch {
            observer?(.failed(failedStep, error))
            let failures = await Transaction.compensate(completedSteps[...], observer: observer)
            let failure = TransactionError(
                transaction: name, phase: .execute, failedStep: failedStep, error: error,
                compensationFailures: failures)
            completedSteps.removeAll()
            observer?(.rolledBack(failure))
            throw failure
        }
    }
}
