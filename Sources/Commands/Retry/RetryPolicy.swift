import BehaviorKitSync

/// How often, and how long apart, a failed command is tried again before its record fails for
/// good: a number of attempts, exponential backoff with jitter, a cap, and errors that are not
/// retried. Set one per command kind on the ``CommandRegistry`` (or for a whole ``QueueWorker``),
/// and per ``DurableStep``.
///
/// ```swift
/// registry.setRetryPolicy(
///     RetryPolicy(maxAttempts: 5, initialDelay: .seconds(1), maximumDelay: .seconds(60)) { error in
///         !(error is CardDeclined)  // a declined card is not retried
///     },
///     forKind: Charge.journalKind)
/// ```
///
/// Attempt `n` (from 1) that fails is followed, while `n < maxAttempts`, by attempt `n + 1`
/// after `initialDelay × multiplier^(n-1)`, capped at `maximumDelay`, less up to `jitter` of it
/// (a fraction, 0…1) drawn from a generator seeded with `seed`, the record's key and `n`: the
/// same inputs give the same delay, so tests can predict it, and records failing together
/// spread out. A command that throws ``RetryAfter`` asks for its next attempt after a delay of
/// its own, whatever the policy.
///
/// A queued record's attempts are its claims (``CommandJournalRecord/attempts``): an attempt
/// whose worker stopped, and that another worker took over, counts too.
///
/// The default of registries and workers is ``never``: one attempt, the record fails at once
/// (as before retry policies existed).
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included (at least 1).
    public var maxAttempts: Int
    /// The delay before the second attempt.
    public var initialDelay: Duration
    /// How much longer each delay is than the one before (at least 1).
    public var multiplier: Double
    /// The longest delay.
    public var maximumDelay: Duration
    /// The fraction of each delay (0…1) that jitter may take off it.
    public var jitter: Double
    /// The seed of the jitter.
    public var seed: UInt64
    /// Whether an error is worth another attempt; errors it refuses fail the record at once.
    public var isRetryable: @Sendable (any Error) -> Bool

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maxAttempts: attempts in all, the first included (at least 1).
    ///   - initialDelay: the delay before the second attempt.
    ///   - multiplier: how much longer each delay is than the one before (at least 1).
    ///   - maximumDelay: the longest delay.
    ///   - jitter: the fraction of each delay (0…1) that jitter may take off it.
    ///   - seed: the seed of the jitter.
    ///   - isRetryable: whether an error is worth another attempt; by default, every error.
    public init(
        maxAttempts: Int, initialDelay: Duration = .seconds(1), multiplier: Double = 2,
        maximumDelay: Duration = .seconds(300), jitter: Double = 0.2, seed: UInt64 = 0,
        isRetryable: @escaping @Sendable (any Error) -> Bool = { _ in true }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = max(.zero, initialDelay)
        self.multiplier = multiplier.isFinite ? max(1, multiplier) : 1
        self.maximumDelay = max(.zero, maximumDelay)
        self.jitter = jitter.isFinite ? min(1, max(0, jitter)) : 0
        self.seed = seed
        self.isRetryable = isRetryable
    }

    /// One attempt: a failure is final.
    public static var never: RetryPolicy { RetryPolicy(maxAttempts: 1) }

    /// The delay before attempt `attempt + 1` of the record `key`, after attempt `attempt`
    /// (from 1) failed with `error`; `nil` when the record fails for good instead.
    public func delay(after attempt: Int, of key: String, failedWith error: any Error) -> Duration? {
        if let retryAfter = error as? RetryAfter { return max(.zero, retryAfter.delay) }
        guard attempt < maxAttempts, isRetryable(error) else { return nil }
        return backoff(after: attempt, of: key)
    }

    /// The backoff after attempt `attempt` (from 1) of the record `key`, with its jitter.
    public func backoff(after attempt: Int, of key: String) -> Duration {
        let delay = Backoff(initial: initialDelay, multiplier: multiplier, maximum: maximumDelay)
            .delay(after: attempt).seconds
        var generator = JitterGenerator(seed: seed, key: key, attempt: attempt)
        let taken = delay * jitter * generator.nextUnit()
        return .milliseconds(Int64(clamping: ((delay - taken) * 1000).rounded(), default: 0))
    }
}

/// What a command throws to ask for another attempt after `delay` (a rate limit's
/// `Retry-After`, a partner that is not ready): its record is released and claimed again once
/// due, whatever its ``RetryPolicy`` (the command decides, with ``DurableContext/attempt``, when
/// to stop asking). The attempt is written down with `reason`.
///
/// ```swift
/// func execute(in context: DurableContext) async throws -> Receipt {
///     let response = try await partner.send(order, idempotencyKey: context.key)
///     if response.status == 429 { throw RetryAfter(.seconds(response.retryAfter), reason: "rate limited") }
///     return response.receipt
/// }
/// ```
public struct RetryAfter: Error, Sendable, Hashable, CustomStringConvertible {
    /// How long until the next attempt.
    public var delay: Duration
    /// Why, as the attempt's error.
    public var reason: String

    /// Asks for another attempt after `delay`, for `reason`.
    public init(_ delay: Duration, reason: String = "") {
        self.delay = delay
        self.reason = reason
    }

    /// "retry after 30 seconds: rate limited".
    public var description: String {
        "retry after \(delay)" + (reason.isEmpty ? "" : ": \(reason)")
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
