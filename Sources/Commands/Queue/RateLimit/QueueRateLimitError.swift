/// Why a ``QueueRateLimit`` cannot be made: each case names the value that is wrong.
public enum QueueRateLimitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The starts per interval are below 1: a queue that may start nothing is paused instead
    /// (``CommandQueue/pause()``).
    case startsNotPositive(Int)
    /// The starts per interval are above ``QueueRateLimit/maximumStarts``.
    case tooManyStarts(Int)
    /// The interval is zero or negative.
    case intervalNotPositive(Duration)
    /// The interval is longer than ``QueueRateLimit/maximumInterval``.
    case intervalTooLong(Duration)
    /// The burst is negative.
    case negativeBurst(Int)
    /// The burst is above ``QueueRateLimit/maximumStarts``.
    case burstTooLarge(Int)

    /// The error, as a sentence that names the value.
    public var description: String {
        switch self {
        case .startsNotPositive(let starts):
            "a rate limit's starts per interval must be at least 1, not \(starts) (to start nothing, pause the queue)"
        case .tooManyStarts(let starts):
            "a rate limit's starts per interval must be at most \(QueueRateLimit.maximumStarts), not \(starts)"
        case .intervalNotPositive(let interval):
            "a rate limit's interval must be longer than zero, not \(interval)"
        case .intervalTooLong(let interval):
            "a rate limit's interval must be at most \(QueueRateLimit.maximumInterval) (366 days), not \(interval)"
        case .negativeBurst(let burst): "a rate limit's burst must be 0 or more, not \(burst)"
        case .burstTooLarge(let burst):
            "a rate limit's burst must be at most \(QueueRateLimit.maximumStarts), not \(burst)"
        }
    }
}
