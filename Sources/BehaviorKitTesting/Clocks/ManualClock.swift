import BehaviorKitSync

/// A clock whose time moves only when a test says so.
///
/// Inject it wherever BehaviorKit takes a `Clock`, then drive time by hand: no test sleeps for
/// real seconds.
///
/// ```swift
/// let clock = ManualClock()
/// let task = Task { try await clock.sleep(for: .seconds(5)) }
/// await clock.advance(by: .seconds(5))   // the sleeper wakes now
/// ```
///
/// A sleeper whose deadline is already reached returns at once; a cancelled sleeper throws
/// `CancellationError`.
public final class ManualClock: Clock, @unchecked Sendable {
    /// A point in manual time: the duration since the clock was made.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The time since the clock's origin.
        public var offset: Duration

        /// Creates an instant at `offset` from the clock's origin.
        public init(offset: Duration = .zero) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other` (negative when `other` is earlier).
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset from the clock's origin, such as `5.0 seconds`.
        public var description: String { "\(offset)" }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant()
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// Sleepers cancelled before they were added: they end at once when they arrive.
        var cancelledEarly: Set<UInt64> = []
    }

    private let state = LockedValue(State())

    /// Creates a clock at its origin, with no sleepers.
    public init() {}

    /// The time the clock shows: moved only by ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: any deadline can be reached exactly.
    public var minimumResolution: Duration { .zero }

    /// The number of tasks currently sleeping on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until the clock is advanced to `deadline`; returns at once when it already has, and
    /// throws `CancellationError` when the task is cancelled, before or while it sleeps.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, cancelled, waiters) = state.withLock {
                    state -> (Bool, Bool, [CheckedContinuation<Void, Never>]) in
                    if state.cancelledEarly.remove(id) != nil { return (false, true, []) }
                    if deadline <= state.now { return (true, false, []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (false, false, Self.takeSatisfiedWaiters(&state))
                }
                waiters.forEach { $0.resume() }
                if cancelled { continuation.resume(throwing: CancellationError()) }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)  // cancelled before it was added: it ends when it arrives
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking every sleeper whose deadline is reached, in
    /// deadline order, then yields so that the woken tasks can run.
    public func advance(by duration: Duration) async {
        let deadline = state.withLock { $0.now.advanced(by: duration) }
        await advance(to: deadline)
    }

    /// Moves time forward to `deadline` (never backwards), waking every sleeper it reaches.
    public func advance(to deadline: Instant) async {
        let woken = state.withLock { state -> [Sleeper] in
            if deadline > state.now { state.now = deadline }
            let due = state.sleepers.filter { $0.deadline <= state.now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= state.now }
            return due
        }
        for sleeper in woken {
            sleeper.continuation.resume()
        }
        for _ in 0..<20 {
            await Task.yield()
        }
    }

    /// Suspends until at least `count` tasks are sleeping on this clock.
    ///
    /// Use it before `advance(by:)` when the code under test starts its sleep on another task.
    public func waitForSleepers(count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.sleeperWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private static func takeSatisfiedWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
        state.sleeperWaiters.removeAll { $0.count <= count }
        return ready
    }
}
