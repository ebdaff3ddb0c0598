/// A clock on which every sleep ends at once, while `now` moves forward by the time slept.
///
/// Useful for demos and previews that should skip waits (the CLI's `--instant`), and for tests
/// that do not care when a timer fires, only that it does.
public final class ImmediateClock: Clock, Sendable {
    /// Manual time: the duration since the clock was made.
    public typealias Instant = ManualClock.Instant

    private let base = ManualClock()

    /// Creates a clock at its origin.
    public init() {}

    /// The time slept so far.
    public var now: Instant { base.now }

    /// Zero: any deadline can be reached exactly.
    public var minimumResolution: Duration { .zero }

    /// Moves ``now`` to `deadline` and returns at once (after a yield, so that other tasks see the
    /// new time); throws `CancellationError` when the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        await base.advance(to: deadline)
        await Task.yield()
    }
}
