/// How long a step that lost the race for its instance waits before it is computed again: a
/// random share of a window that doubles with each loss (from 100 µs, at most 20 ms). The
/// randomness is seeded by the instance, the event and the attempt, so that a run can be
/// replayed, and senders of one key still draw different waits.
enum ConflictBackoff {
    static func delay(after attempt: Int, key: MachineKey, eventID: String?) -> Duration {
        let window = min(Int64(20_000), Int64(100) << Int64(min(max(attempt - 1, 0), 8)))
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(key.machine)/\(key.key)/\(eventID ?? "")/\(attempt)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        // SplitMix64's finaliser, for bits spread over the whole word.
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        return .microseconds(Int64(hash % UInt64(window)) + 1)
    }
}
