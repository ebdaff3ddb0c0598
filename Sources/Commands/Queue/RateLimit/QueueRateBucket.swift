/// The arithmetic of a ``QueueRateLimit``'s bucket, in whole numbers, which every store shares
/// (PostgreSQL's batch function spells the same in SQL).
///
/// The bucket holds a credit, counted so that one start costs ``cost`` (the interval in
/// milliseconds) and each millisecond adds ``refill`` (the starts per interval): no division,
/// so that no rounding ever lets a start through early. It holds at most ``capacity``, `1 +
/// burst` starts; a bucket never written (or reset by a change of its limit) is full. Any
/// window of `interval` milliseconds then holds at most `starts + burst` starts.
package struct QueueRateBucket: Sendable, Hashable {
    /// The credit a start costs: the interval in milliseconds.
    package let cost: Int64
    /// The credit each millisecond adds: the starts per interval.
    package let refill: Int64
    /// The most credit the bucket holds: `1 + burst` starts.
    package let capacity: Int64

    /// The bucket of `limit`; its bounds keep every product below `Int64.max`.
    package init(_ limit: QueueRateLimit) {
        cost = limit.intervalMilliseconds
        refill = Int64(limit.starts)
        capacity = (1 + Int64(limit.burst)) * cost
    }

    /// The credit at `now` of a bucket that held `credit` at `at` (`nil`: never written, full).
    package func credit(_ credit: Int64?, at: Int64?, now: Int64) -> Int64 {
        guard let credit, let at else { return capacity }
        // Long enough to fill the bucket from empty; so that the product cannot overflow.
        let filling = (capacity + refill - 1) / refill
        let elapsed = min(max(0, now &- at), filling)
        return min(capacity, max(0, credit) + elapsed * refill)
    }

    /// How many starts `credit` allows now.
    package func starts(_ credit: Int64) -> Int { Int(max(0, credit) / cost) }

    /// How many milliseconds until `credit` allows a start: 0 when it does.
    package func wait(_ credit: Int64) -> Int64 {
        credit >= cost ? 0 : (cost - max(0, credit) + refill - 1) / refill
    }
}
