import BehaviorKitSync

/// The waits between a request's attempts: `initialBackoff`, doubling up to `maximumBackoff`,
/// each shortened by a random part of at most `jitter` of it (seeded: the same seed gives the
/// same waits).
struct ReconnectBackoff: Sendable {
    private let maximum: Int64
    private let jitter: Double
    private var current: Int64
    private var random: SplitMix64

    init(_ policy: PostgresCommandJournal.Reconnection) {
        maximum = min(max(policy.maximumBackoff.wholeNanoseconds, 0), Self.longest)
        current = min(max(policy.initialBackoff.wholeNanoseconds, 0), maximum)
        jitter = policy.jitter.isFinite ? min(max(policy.jitter, 0), 1) : 0
        random = SplitMix64(seed: policy.seed ?? UInt64.random(in: .min ... .max))
    }

    /// A day, in nanoseconds: the longest wait, well within `Double`'s exact integers.
    static let longest: Int64 = 86_400_000_000_000

    /// The next wait.
    mutating func next() -> Duration {
        let full = current
        let (doubled, overflow) = current.multipliedReportingOverflow(by: 2)
        current = overflow ? maximum : min(doubled, maximum)
        let unit = random.nextUnit()  // in [0, 1)
        let shortened = Double(full) * (1 - jitter * unit)
        return .nanoseconds(Int64(shortened.rounded(.down)))
    }
}
