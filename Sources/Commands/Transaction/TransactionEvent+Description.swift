extension TransactionEvent: CustomStringConvertible {
    /// One line for a log: what happened, to which step (counting from 1, named by its command's
    /// ``Command/name``), and the error.
    ///
    /// ```swift
    /// let checkout = Transaction("checkout", steps: [reserve, charge]) { event in print(event) }
    /// // transaction 'checkout' started
    /// // step 1 'reserve' finished
    /// // step 2 'charge' failed: card declined
    /// // step 1 'reserve' compensated
    /// // rolled back: transaction 'checkout' failed at step 2 'charge': card declined
    /// ```
    public var description: String {
        switch self {
        case .started(let name): "transaction '\(name)' started"
        case .stepFinished(let index, let command): "\(Self.step(index, command)) finished"
        case .failed(let step?, let error): "\(step) failed: \(error)"
        case .failed(nil, let error): "the transaction's body failed: \(error)"
        case .compensated(let index, let command): "\(Self.step(index, command)) compensated"
        case .compensationRetried(let index, let command, let attempt, let error):
            "undoing \(Self.step(index, command)) failed: \(error); retry \(attempt) follows"
        case .compensationFailed(let index, let command, let error):
            "undoing \(Self.step(index, command)) failed: \(error)"
        case .finished(let name): "transaction '\(name)' finished"
        case .rolledBack(let error): "rolled back: \(error)"
        }
    }

    /// "step 2 'charge'", as ``TransactionError/Step`` says it.
    private static func step(_ index: Int, _ command: any Command) -> TransactionError.Step {
        TransactionError.Step(index: index, name: command.name)
    }
}
