/// The first of a piece of work and a deadline: the one race of work against a clock's deadline
/// (a transaction's compensations, a durable transaction's rollback).
package enum DeadlineRace {
    /// Runs `work` on a task of its own, which the caller's cancellation does not reach, and
    /// answers its value; or, once `end` (elapsed time on `clock`) passes first, calls `expired`
    /// and answers `nil`: `work` is then cancelled and not waited for. Without an `end`, waits
    /// for `work`.
    ///
    /// Where the platform has it, `work` starts at once on the calling thread (`Task.immediate`),
    /// so that work that does not suspend costs no hop to another thread and back, and no timer.
    package static func run<T: Sendable>(
        until end: Duration?, on clock: ElapsedClock, expired: @escaping @Sendable () -> Void = {},
        _ work: @escaping @Sendable () async -> T
    ) async -> T? {
        guard let end else { return await shielded(work).value }
        let race = LockedValue(Race<T>())
        return await withCheckedContinuation { continuation in
            race.withLock { $0.continuation = continuation }
            let worker = shielded {
                let value = await work()
                let (continuation, timer) = race.withLock { ($0.finish(), $0.timer) }
                continuation?.resume(returning: value)
                timer?.cancel()
                return value
            }
            if race.withLock({ $0.continuation == nil }) { return }  // done without suspending: no timer
            let timer = Task {
                do { try await clock.sleep(untilElapsed: end) } catch { return }
                guard let continuation = race.withLock({ $0.finish() }) else { return }
                expired()
                worker.cancel()
                continuation.resume(returning: nil)
            }
            let finished = race.withLock { race in
                race.timer = timer
                return race.continuation == nil
            }
            if finished { timer.cancel() }
        }
    }

    /// A task the caller's cancellation does not reach, started at once where the platform can.
    private static func shielded<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> Task<T, Never> {
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            return Task.immediate { await work() }
        }
        return Task { await work() }
    }

    /// Who of the work and the deadline answered first.
    private struct Race<T: Sendable> {
        var continuation: CheckedContinuation<T?, Never>?
        var timer: Task<Void, Never>?

        /// The continuation, for the first to finish only.
        mutating func finish() -> CheckedContinuation<T?, Never>? {
            defer { continuation = nil }
            return continuation
        }
    }
}
