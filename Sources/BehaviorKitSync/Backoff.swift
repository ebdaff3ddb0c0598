/// Exponential backoff, the one computation behind every wait of the package that grows with
/// each attempt: a command's retries (`RetryPolicy`), a compensation's (`CompensationBackoff`),
/// PostgreSQL reconnections and a durable machine's lost commit races. Each adds its own jitter.
package struct Backoff: Sendable, Hashable {
    /// The wait after the first attempt.
    package let initial: Duration
    /// How much longer each wait is than the one before (at least 1).
    package let multiplier: Double
    /// The longest wait.
    package let maximum: Duration

    /// A backoff; negative durations count as zero, a multiplier below 1 (or not finite) as 1.
    package init(initial: Duration, multiplier: Double = 2, maximum: Duration) {
        self.initial = max(.zero, initial)
        self.multiplier = multiplier.isFinite ? max(1, multiplier) : 1
        self.maximum = max(.zero, maximum)
    }

    /// The wait after attempt `attempt` (from 1): `initial × multiplier^(attempt − 1)`, never past
    /// ``maximum`` and never overflowing, for any `attempt`.
    package func delay(after attempt: Int) -> Duration {
        var delay = min(initial, maximum)
        var step = 1
        while step < attempt && delay > .zero && delay < maximum && multiplier > 1 {
            // delay × multiplier > maximum, without computing the product.
            delay = delay > maximum / multiplier ? maximum : delay * multiplier
            step += 1
        }
        return delay
    }
}
