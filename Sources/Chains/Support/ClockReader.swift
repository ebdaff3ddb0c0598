/// Reads an injected clock as the time since it was wrapped, so that types holding one need
/// no clock type parameter.
@usableFromInline
struct ClockReader: Sendable {
    @usableFromInline
    let read: @Sendable () -> Duration

    init<C: Clock<Duration>>(_ clock: C) {
        let origin = clock.now
        self.read = { origin.duration(to: clock.now) }
    }

    /// The time since the reader was made.
    @inlinable
    var now: Duration { read() }
}
