/// What the fleet crash test counted.
public struct FleetReport: Sendable, Hashable, CustomStringConvertible {
    /// Workers killed with SIGKILL.
    public var kills = 0
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

    /// "52 kills, 2000 acknowledged, 1795 done, 205 compensated, 311 taken over, longest wait 1.2 s (298 measured)".
    public var description: String {
        let wait = Duration.milliseconds(longestWaitMilliseconds).display
        return "\(kills) kills, \(acknowledged) acknowledged, \(done) done, \(compensated) compensated, "
            + "\(takenOver) taken over, longest wait for a dead worker's claim \(wait) (\(measuredTakeovers) measured)"
    }
}
