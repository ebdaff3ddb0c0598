import BehaviorKitSync

/// The waits between a request's attempts: `initialBackoff`, doubling up to `maximumBackoff`,
/// each shortened by a random part of at most `jitter` of it (seeded: the same seed gives the
/// same waits).
struct ReconnectBackoff: Sendable {
    private let backoff: Backoff
    private let jitter: Double
    private var attempt = 1
    private var random: SplitMix64

    init(_ policy: PostgresCommandJournal.Reconnection) {
        let maximum = min(max(policy.maximumBackoff, .zero), Self.longest)
        backoff = Backoff(initial: policy.initialBackoff, multiplier: 2, maximum: maximum)
        jitter = policy.jitter.isFinite ? min(max(policy.jitter, 0), 1) : 0
        random = SplitMix64(seed: policy.seed ?? UInt64.random(in: .min ... .max))
    }

    /// A day: the longest wait, well within `Double`'s exact integers in nanoseconds.
    static let longest: Duration = .seconds(86_400)

    /// The next wait.
    mutating func next() -> Duration {
        let delay = backoff.delay(after: attempt)
        // Once at the maximum (or at zero), every wait is the same: the count stops there.
        if delay > .zero, delay < backoff.maximum { attempt += 1 }
        let full = delay.wholeNanoseconds
        let unit = random.nextUnit()  // in [0, 1)
        let shortened = Double(full) * (1 - jitter * unit)
        return .nanoseconds(Int64(shortened.rounded(.down)))
    }
}
