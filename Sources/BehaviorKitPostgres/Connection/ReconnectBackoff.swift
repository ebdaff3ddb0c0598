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
        let unit = Double(random.next() >> 11) / Double(UInt64(1) << 53)  // in [0, 1)
        let shortened = Double(full) * (1 - jitter * unit)
        return .nanoseconds(Int64(shortened.rounded(.down)))
    }
}

/// A small seeded generator (SplitMix64): fast, and the same numbers for the same seed.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
