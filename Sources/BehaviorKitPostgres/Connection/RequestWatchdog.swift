import BehaviorKitSync

/// Watches the requests under way on a journal's connections from one task, every 50 ms at
/// most, rather than from a task and a timer each: a request answered costs a lock, not a task
/// started, a timer armed and both cancelled. The task runs while something is watched.
final class RequestWatchdog: Sendable {
    /// What a look at a request found.
    enum Verdict: Sendable {
        /// Nothing yet: look again.
        case waiting
        /// The request is over: stop watching it.
        case over
        /// It stalled, for this reason: ``watch(until:_:fire:)``'s `fire`.
        case stalled(String)
    }

    private struct Watch {
        let deadline: ContinuousClock.Instant
        let look: @Sendable (ContinuousClock.Instant) -> Verdict
        let fire: @Sendable (_ stalled: String?) -> Void
    }

    private struct State {
        var watches: [Int: Watch] = [:]
        var next = 0
        var running = false
    }

    /// How long at most between two looks.
    static let interval = Duration.milliseconds(50)

    private let state = LockedValue(State())

    init() {}

    /// Looks at a request with `look` until it is over; calls `fire` once, with `nil` when
    /// `deadline` passed first, or the reason `look` gave; returns the watch's number for
    /// ``stop(_:)``.
    func watch(
        until deadline: ContinuousClock.Instant, _ look: @escaping @Sendable (ContinuousClock.Instant) -> Verdict,
        fire: @escaping @Sendable (_ stalled: String?) -> Void
    ) -> Int {
        let (number, starts) = state.withLock { state in
            let number = state.next
            state.next += 1
            state.watches[number] = Watch(deadline: deadline, look: look, fire: fire)
            let starts = !state.running
            state.running = true
            return (number, starts)
        }
        if starts { Task { await self.run() } }
        return number
    }

    /// Stops watching the request `number`; `fire` is not called after.
    func stop(_ number: Int) {
        state.withLock { _ = $0.watches.removeValue(forKey: number) }
    }

    private func run() async {
        while true {
            let now = ContinuousClock.now
            let (fired, wait) = state.withLock { state -> ([(String?, @Sendable (String?) -> Void)], Duration?) in
                var fired: [(String?, @Sendable (String?) -> Void)] = []
                for (number, watch) in state.watches {
                    if now >= watch.deadline {
                        fired.append((nil, watch.fire))
                        state.watches[number] = nil
                        continue
                    }
                    switch watch.look(now) {
                    case .waiting: break
                    case .over: state.watches[number] = nil
                    case .stalled(let reason):
                        fired.append((reason, watch.fire))
                        state.watches[number] = nil
                    }
                }
                guard let earliest = state.watches.values.lazy.map(\.deadline).min() else {
                    state.running = false
                    return (fired, nil)
                }
                return (fired, min(Self.interval, now.duration(to: earliest)))
            }
            for (reason, fire) in fired { fire(reason) }
            guard let wait else { return }
            try? await Task.sleep(for: max(wait, .milliseconds(1)))
        }
    }
}
