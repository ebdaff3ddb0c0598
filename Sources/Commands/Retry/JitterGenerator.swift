import BehaviorKitSync

/// A SplitMix64 generator seeded with a policy's seed, a record's key and an attempt: the
/// jitter of ``RetryPolicy`` is the same for the same inputs, in every process.
struct JitterGenerator: RandomNumberGenerator {
    private var random: SplitMix64

    init(seed: UInt64, key: String, attempt: Int) {
        random = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: attempt) &* 0x9e37_79b9_7f4a_7c15), text: key)
    }

    mutating func next() -> UInt64 { random.next() }

    /// A number in 0..<1.
    mutating func nextUnit() -> Double { random.nextUnit() }
}
