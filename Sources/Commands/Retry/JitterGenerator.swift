/// A SplitMix64 generator seeded with a policy's seed, a record's key and an attempt: the
/// jitter of ``RetryPolicy`` is the same for the same inputs, in every process.
struct JitterGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64, key: String, attempt: Int) {
        // FNV-1a of the key: stable across processes (Swift's hashValue is not).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        state = seed ^ hash ^ (UInt64(truncatingIfNeeded: attempt) &* 0x9e37_79b9_7f4a_7c15)
    }

    mutating func next() -> UInt64 {
        state = state &+ 0x9e37_79b9_7f4a_7c15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return mixed ^ (mixed >> 31)
    }

    /// A number in 0..<1.
    mutating func nextUnit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
