/// What a transaction is doing, for logs and traces.
///
/// ```swift
/// let checkout = Transaction("checkout", steps: steps) { event in
///     if case .failed(_, let error) = event { print("Transaction failed: \(error)") }
/// }
/// ```
public enum TransactionEvent: Sendable {
    /// The transaction (named) is starting.
    case started(String)
    /// A step finished.
    case stepFinished(index: Int, command: any Command)
    /// A step (or, when the step is `nil`, the scoped body) failed; compensation comes next.
    case failed(TransactionError.Step?, any Error)
    /// A completed step was undone while rolling back.
    case compensated(index: Int, command: any Command)
    /// Undoing a completed step failed, and the ``CompensationPolicy`` tries it again
    /// (`attempt` is the retry about to run, from 1) after its backoff.
    case compensationRetried(index: Int, command: any Command, attempt: Int, error: any Error)
    /// Undoing a completed step failed while rolling back, after its retries; unless the
    /// ``CompensationPolicy`` stops at the first failure, the others are still undone.
    case compensationFailed(index: Int, command: any Command, error: any Error)
    /// Every step finished: the transaction (named) succeeded.
    case finished(String)
    /// Rolling back is over; the transaction throws this error.
    case rolledBack(TransactionError)
}
