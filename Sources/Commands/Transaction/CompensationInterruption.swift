/// Why a completed step was not undone when its transaction rolled back: the error of its
/// ``TransactionError/CompensationFailure``.
///
/// ```swift
/// for failure in error.compensationFailures {
///     if case .deadlinePassed = failure.error as? CompensationInterruption {
///         alertOperator(failure.step)  // undo it by hand
///     }
/// }
/// ```
public enum CompensationInterruption: Error, Sendable, Hashable, CustomStringConvertible {
    /// The ``CompensationPolicy/deadline`` passed before the step was undone (if its undo was
    /// running, it was cancelled).
    case deadlinePassed(Duration)
    /// The ``CompensationPolicy`` stops at the first failure, and that step could not be undone.
    case stoppedAtFailure(TransactionError.Step)

    /// "not undone: the compensation deadline of 5.0 seconds passed".
    public var description: String {
        switch self {
        case .deadlinePassed(let deadline): "not undone: the compensation deadline of \(deadline) passed"
        case .stoppedAtFailure(let step): "not undone: compensation stopped when \(step) could not be undone"
        }
    }
}
