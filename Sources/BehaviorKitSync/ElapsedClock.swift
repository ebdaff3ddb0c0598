/// An injected clock read as the time since it was wrapped, so that the types holding one need no
/// clock type parameter: the one clock eraser of the package (caches and lookups, leases,
/// compensations, the disk cache's ages).
public struct ElapsedClock: Sendable {
    @usableFromInline let elapsed: @Sendable () -> Duration
    @usableFromInline let sleeper: @Sendable (Duration) async throws -> Void

    /// Wraps `clock`; ``now`` is zero at this moment.
    public init<C: Clock<Duration>>(_ clock: C) {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { elapsed in try await clock.sleep(until: origin.advanced(by: elapsed), tolerance: nil) }
    }

    /// The time since the clock was wrapped.
    @inlinable public var now: Duration { elapsed() }

    /// Sleeps for `duration` on the clock.
    public func sleep(for duration: Duration) async throws { try await sleeper(now + duration) }

    /// Sleeps until ``now`` is `elapsed`.
    public func sleep(untilElapsed elapsed: Duration) async throws { try await sleeper(elapsed) }
}
