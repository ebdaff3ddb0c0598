extension TransactionError: Equatable {
    /// Whether both say the same: the same transaction, phase, step, cancellation, undone steps,
    /// and matching errors (`==` for `Equatable` errors, else type and description).
    public static func == (lhs: TransactionError, rhs: TransactionError) -> Bool {
        lhs.transaction == rhs.transaction && lhs.phase == rhs.phase && lhs.failedStep == rhs.failedStep
            && lhs.isCancelled == rhs.isCancelled && lhs.compensatedSteps == rhs.compensatedSteps
            && errorsMatch(lhs.error, rhs.error) && lhs.compensationFailures == rhs.compensationFailures
    }
}

extension TransactionError.CompensationFailure: Equatable {
    /// The same step, and matching errors.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.step == rhs.step && errorsMatch(lhs.error, rhs.error)
    }
}
