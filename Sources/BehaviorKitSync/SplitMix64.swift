/// SplitMix64: a small, fast generator whose sequence is fixed by its seed, shared by every
/// module that draws seeded jitter (retry backoff, reconnection backoff, conflict backoff) and
/// by the scenarios' random failures, so that a run with a seed is the same run every time.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) { state = seed }

    /// A generator seeded by `seed` and a text (a key, say), the same in every process: the
    /// text is hashed with FNV-1a (Swift's `hashValue` differs from one process to the next).
    package init(seed: UInt64, text: String) {
        state = seed ^ Self.fnv1a(text)
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        return Self.mix(state)
    }

    /// A number in 0..<1, from the next 53 bits.
    package mutating func nextUnit() -> Double {
        Double(next() >> 11) / Double(UInt64(1) << 53)
    }

    /// SplitMix64's finaliser: every bit of `value` spread over the whole word.
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// FNV-1a of the text's UTF-8 bytes: a hash that is stable across processes.
    package static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
