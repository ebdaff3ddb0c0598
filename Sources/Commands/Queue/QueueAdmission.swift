/// How many records a ``QueueWorker`` takes at once: all its slots while its work settles in
/// time; half as many at each attempt it loses (its lease lapsed before the journal renewed
/// it, or the journal failed it), and one more back after as many settled in time as it takes
/// at once — additive increase, multiplicative decrease, as TCP's congestion window.
///
/// A fleet whose journal or machine is too slow to renew its leases in time otherwise keeps
/// taking as much work as ever: each lapsed lease is taken over and run again, which loads the
/// journal more, which makes more leases lapse, until hardly anything settles. Taking less at
/// once shortens the journal's queue until the leases hold again.
struct QueueAdmission: Sendable {
    /// The most the worker ever takes at once.
    let slots: Int
    /// How many it takes at once now, from 1 to `slots`.
    private(set) var limit: Int
    /// Settled in time since the limit last changed.
    private var settledInTime = 0

    init(slots: Int) {
        self.slots = max(1, slots)
        self.limit = self.slots
    }

    /// Takes in how an attempt ended.
    mutating func settled(_ outcome: DurableOutcome) {
        switch outcome {
        case .leaseLost, .error:
            limit = max(1, limit / 2)
            settledInTime = 0
        case .unreadable:
            break  // given back for another worker: says nothing of the journal's pace
        default:
            settledInTime += 1
            if settledInTime >= limit {
                limit = min(slots, limit + 1)
                settledInTime = 0
            }
        }
    }
}
