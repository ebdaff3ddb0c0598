import BehaviorKitSync

/// How a transaction undoes its completed steps when it fails: whether a failed compensation
/// stops the others, how often each is retried and how long to wait between tries, and a
/// deadline for the whole rollback, all on a clock you inject.
///
/// Compensation always runs shielded from the cancellation of the task that ran the
/// transaction: a cancelled checkout still refunds the card. The deadline is what bounds it.
///
/// ```swift
/// let policy = CompensationPolicy(
///     retries: 2, backoff: .exponential(initial: .milliseconds(100)), deadline: .seconds(30))
/// let checkout = Transaction("checkout", steps: [reserve, charge, ship], compensation: policy)
/// ```
///
/// In tests, pass a `ManualClock` (from `BehaviorKitTesting`) as `clock`, and drive the
/// backoff and the deadline by hand.
public struct CompensationPolicy: Sendable {
    /// What a compensation that still fails after its retries does to the ones after it.
    public enum FailureMode: Sendable, Hashable {
        /// Undo the other steps anyway (the default): each failure is reported.
        case continueAfterFailure
        /// Leave the other steps as they are: they are reported as not compensated.
        case stopAtFirstFailure
    }

    /// What a compensation that still fails after its retries does to the ones after it.
    public var failureMode: FailureMode

    /// How many more times a failed compensation is tried (0: once only). Negative values count as 0.
    public var retries: Int

    /// How long to wait before each retry.
    public var backoff: CompensationBackoff

    /// How long the whole rollback may take (`nil`: no limit), from the moment the transaction
    /// failed. When it passes, the compensation running is cancelled, the transaction throws at
    /// once, and the steps not undone are reported with ``CompensationInterruption/deadlinePassed(_:)``.
    public var deadline: Duration?

    let clock: ElapsedClock

    /// A policy on the continuous clock.
    ///
    /// - Parameters:
    ///   - failureMode: whether a failed compensation stops the ones after it.
    ///   - retries: how many more times a failed compensation is tried.
    ///   - backoff: how long to wait before each retry.
    ///   - deadline: how long the whole rollback may take.
    public init(
        failureMode: FailureMode = .continueAfterFailure, retries: Int = 0, backoff: CompensationBackoff = .none,
        deadline: Duration? = nil
    ) {
        self.init(
            failureMode: failureMode, retries: retries, backoff: backoff, deadline: deadline, clock: ContinuousClock())
    }

    /// A policy whose backoff and deadline run on `clock` (a `ManualClock` in tests).
    public init<C: Clock<Duration>>(
        failureMode: FailureMode = .continueAfterFailure, retries: Int = 0, backoff: CompensationBackoff = .none,
        deadline: Duration? = nil, clock: C
    ) {
        self.failureMode = failureMode
        self.retries = max(0, retries)
        self.backoff = backoff
        self.deadline = deadline
        self.clock = ElapsedClock(clock)
    }

    /// Today's behaviour and the default: every completed step is undone once, newest first; a
    /// failure does not stop the others; no deadline.
    public static let `default` = CompensationPolicy()
}

/// How long a transaction waits before retrying a failed compensation.
///
/// ```swift
/// CompensationBackoff.constant(.seconds(1))                                   // 1 s, 1 s, 1 s…
/// CompensationBackoff.exponential(initial: .milliseconds(100), maximum: .seconds(5))  // 0.1, 0.2, 0.4 s…
/// ```
public struct CompensationBackoff: Sendable, Hashable {
    /// The wait before the first retry.
    public var initial: Duration
    /// Each wait is the one before times this (1: constant).
    public var multiplier: Int
    /// No wait is longer than this.
    public var maximum: Duration

    /// No wait: retry at once.
    public static let none = CompensationBackoff(initial: .zero, multiplier: 1, maximum: .zero)

    /// The same wait before every retry.
    public static func constant(_ delay: Duration) -> CompensationBackoff {
        CompensationBackoff(initial: delay, multiplier: 1, maximum: delay)
    }

    /// A wait that doubles (or grows by `multiplier`) after each retry, up to `maximum`.
    public static func exponential(
        initial: Duration, multiplier: Int = 2, maximum: Duration = .seconds(60)
    ) -> CompensationBackoff {
        CompensationBackoff(initial: initial, multiplier: multiplier, maximum: maximum)
    }

    /// Creates a backoff; a multiplier below 1 counts as 1, and negative durations as zero.
    public init(initial: Duration, multiplier: Int, maximum: Duration) {
        self.initial = max(.zero, initial)
        self.multiplier = max(1, multiplier)
        self.maximum = max(.zero, maximum)
    }

    /// The wait before retry `attempt` (1 is the first retry), never past ``maximum`` and never
    /// overflowing.
    public func delay(beforeRetry attempt: Int) -> Duration {
        Backoff(initial: initial, multiplier: Double(multiplier), maximum: maximum).delay(after: attempt)
    }
}
