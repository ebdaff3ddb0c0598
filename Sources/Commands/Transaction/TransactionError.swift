/// Why a transaction failed: the step that failed, its error, whether its task was cancelled,
/// what was undone, and every compensation that failed too.
///
/// ```swift
/// do {
///     try await Transaction("checkout", steps: [reserve, charge, ship]).run()
/// } catch {
///     print(error)  // transaction 'checkout' failed at step 2 'charge': card declined
///     error.compensatedSteps      // [step 1 'reserve']: undone
///     error.compensationFailures  // the steps that could not be undone, and why
/// }
/// ```
///
/// Errors compare equal when they say the same: the wrapped errors compare with `==` when they
/// are `Equatable`, else by type and description.
public struct TransactionError: Error, CustomStringConvertible {
    /// What the transaction was doing when it failed.
    public enum Phase: String, Sendable, Hashable {
        /// Running its steps; the completed ones were then undone in reverse.
        case execute
        /// Undoing a completed transaction; the steps already undone were then done again.
        case undo
    }

    /// A step of the transaction, by position and name.
    public struct Step: Sendable, Hashable, CustomStringConvertible {
        /// The step's position, from 0.
        public let index: Int
        /// The step's command name.
        public let name: String

        /// Creates a step reference.
        public init(index: Int, name: String) {
            self.index = index
            self.name = name
        }

        /// "step 2 'charge'" (counting from 1, as people do).
        public var description: String { "step \(index + 1) '\(name)'" }
    }

    /// A compensation (an undo while rolling back, or a redo after a failed undo) that failed,
    /// or that did not run (its error is then a ``CompensationInterruption``).
    public struct CompensationFailure: Sendable, CustomStringConvertible {
        /// The step whose compensation failed.
        public let step: Step
        /// What its compensation threw (after the retries), or the ``CompensationInterruption``
        /// that kept it from running.
        public let error: any Error

        /// Creates a compensation failure.
        public init(step: Step, error: any Error) {
            self.step = step
            self.error = error
        }

        /// "step 1 'reserve': <error>".
        public var description: String { "\(step): \(error)" }
    }

    /// The transaction's name.
    public let transaction: String

    /// What the transaction was doing when it failed.
    public let phase: Phase

    /// The step that failed, or `nil` when the body of a scoped ``transaction(_:compensation:observer:_:)``
    /// threw between steps.
    public let failedStep: Step?

    /// What the failing step (or body) threw.
    public let error: any Error

    /// Every step that should have been undone and was not: its compensation failed (after its
    /// retries), or did not run (``CompensationInterruption``). Unless the
    /// ``CompensationPolicy`` stops at the first failure, a failing compensation does not stop
    /// the others.
    public let compensationFailures: [CompensationFailure]

    /// Whether the task running the transaction was cancelled (the step's error is then usually
    /// a `CancellationError`). The compensations ran all the same.
    public let isCancelled: Bool

    /// The steps undone while rolling back, in the order they were undone (newest first).
    public let compensatedSteps: [Step]

    /// Creates a transaction error.
    public init(
        transaction: String, phase: Phase, failedStep: Step?, error: any Error,
        compensationFailures: [CompensationFailure] = [], isCancelled: Bool = false, compensatedSteps: [Step] = []
    ) {
        self.transaction = transaction
        self.phase = phase
        self.failedStep = failedStep
        self.error = error
        self.compensationFailures = compensationFailures
        self.isCancelled = isCancelled
        self.compensatedSteps = compensatedSteps
    }

    /// Names the transaction, the failing step, its error and the failed compensations; for a
    /// cancelled transaction, says so and names what was undone.
    public var description: String {
        let verb = phase == .execute ? "transaction" : "undoing transaction"
        let place = failedStep.map { " at \($0)" } ?? ""
        var text: String
        if isCancelled {
            text = "\(verb) '\(transaction)' was cancelled\(place)"
            if !(error is CancellationError) { text += ": \(error)" }
            let undone =
                compensatedSteps.isEmpty ? "nothing" : compensatedSteps.map(\.description).joined(separator: ", ")
            text += "; compensated \(undone)"
        } else {
            text = "\(verb) '\(transaction)' failed\(place): \(error)"
        }
        if !compensationFailures.isEmpty {
            let what = phase == .execute ? "undo" : "redo"
            text += "; \(what) failed for " + compensationFailures.map(\.description).joined(separator: "; ")
        }
        return text
    }
}
