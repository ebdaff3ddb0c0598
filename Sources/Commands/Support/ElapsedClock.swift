/// An injected clock read as the time since it was wrapped, so that types holding one need no
/// clock type parameter.
struct ElapsedClock: Sendable {
    let elapsed: @Sendable () -> Duration
    let sleeper: @Sendable (Duration) async throws -> Void

    init<C: Clock<Duration>>(_ clock: C) {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { duration in try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil) }
    }

    /// The time since the clock was wrapped.
    var now: Duration { elapsed() }

    /// Sleeps for `duration` on the clock.
    func sleep(for duration: Duration) async throws { try await sleeper(duration) }
}
