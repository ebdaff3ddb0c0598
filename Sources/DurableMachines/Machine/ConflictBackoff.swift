import BehaviorKitSync

/// How long a step that lost the race for its instance waits before it is computed again: a
/// random share of a window that doubles with each loss (from 100 µs, at most 20 ms). The
/// randomness is seeded by the instance, the event and the attempt, so that a run can be
/// replayed, and senders of one key still draw different waits.
enum ConflictBackoff {
    static func delay(after attempt: Int, key: MachineKey, eventID: String?) -> Duration {
        let window = min(Int64(20_000), Int64(100) << Int64(min(max(attempt - 1, 0), 8)))
        // FNV-1a, then SplitMix64's finaliser, for bits spread over the whole word.
        let hash = SplitMix64.mix(SplitMix64.fnv1a("\(key.machine)/\(key.key)/\(eventID ?? "")/\(attempt)"))
        return .microseconds(Int64(hash % UInt64(window)) + 1)
    }
}
