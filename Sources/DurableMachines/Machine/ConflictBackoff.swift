import BehaviorKitSync

/// How long a step that lost the race for its instance waits before it is computed again: a
/// random share of a window that doubles with each loss (from 100 µs, at most 20 ms). The
/// randomness is seeded by the instance, the event and the attempt, so that a run can be
/// replayed, and senders of one key still draw different waits.
enum ConflictBackoff {
    static func delay(after attempt: Int, key: MachineKey, eventID: String?) -> Duration {
        let window = max(1, window(after: attempt).wholeNanoseconds / 1_000)
        // FNV-1a, then SplitMix64's finaliser, for bits spread over the whole word.
        let hash = SplitMix64.mix(SplitMix64.fnv1a("\(key.machine)/\(key.key)/\(eventID ?? "")/\(attempt)"))
        return .microseconds(Int64(hash % UInt64(window)) + 1)
    }

    private static func window(after attempt: Int) -> Duration {
        Backoff(initial: .microseconds(100), multiplier: 2, maximum: .milliseconds(20)).delay(after: attempt)
    }
}
