import BehaviorKitSync

/// What the fleet crash test counted.
public struct FleetReport: Sendable, Hashable, CustomStringConvertible {
    /// Workers killed with SIGKILL.
    public var kills = 0
    /// Workers paused with SIGSTOP (for one to five leases) and resumed with SIGCONT.
    public var pauses = 0
    /// Database restarts and terminated backends (PostgreSQL).
    public var databaseFaults = 0
    /// Workers that exited on their own (one that could not open the journal while the database
    /// restarted) and were started again.
    public var revived = 0
    /// Orders whose enqueue returned (durable).
    public var acknowledged = 0
    /// Orders that completed.
    public var done = 0
    /// Orders compensated (one in ten fails on purpose; others were taken over half-done).
    public var compensated = 0
    /// Orders a worker took over from a killed one.
    public var takenOver = 0
    /// Of those, the takeovers whose wait could be measured (the killed worker had logged a step).
    public var measuredTakeovers = 0
    /// The longest time between a worker's kill and another worker's first step on an order the
    /// killed one held, in milliseconds.
    public var longestWaitMilliseconds: Int64 = 0
    /// Executions the ledger refused because a later attempt at their order had reached it:
    /// a stale attempt's act, stopped by the partner's fence.
    public var refusedStaleWrites = 0
    /// With limits per customer: the most orders of one customer seen running at once (the
    /// limit, when it was reached and kept).
    public var partitionPeak = 0
    /// With a rate limit: the most attempts begun in one 5 s window.
    public var busiestFiveSeconds = 0
    /// How many times the driver paused the queue fleet-wide.
    public var queuePauses = 0
    /// The schedules' ticks that ran.
    public var ticks = 0

    /// "52 kills, 10 pauses, 0 database faults, 2000 acknowledged, 1795 done, 205 compensated, 311 taken over,
    /// 4 stale writes refused, longest wait for a dead worker's claim 1.2 s (298 measured), 0 revived".
    public var description: String {
        let wait = Duration.milliseconds(longestWaitMilliseconds).shortDescription
        return "\(kills) kills, \(pauses) pauses, \(databaseFaults) database faults, \(acknowledged) acknowledged, "
            + "\(done) done, \(compensated) compensated, \(takenOver) taken over, "
            + "\(refusedStaleWrites) stale writes refused, "
            + "longest wait for a dead worker's claim \(wait) (\(measuredTakeovers) measured), \(revived) revived"
            + (partitionPeak > 0 ? ", at most \(partitionPeak) of a customer at once" : "")
            + (busiestFiveSeconds > 0 ? ", at most \(busiestFiveSeconds) begun in 5 s" : "")
            + (queuePauses > 0 ? ", \(queuePauses) queue pauses" : "") + (ticks > 0 ? ", \(ticks) ticks" : "")
    }
}
