import BehaviorKitSync

extension CompensationPolicy {
    /// Runs `work` on a task of its own, which the caller's cancellation does not reach, and
    /// returns its value; or `nil` once the policy's ``deadline`` (from now, on the policy's
    /// clock) passes first: `work` is then cancelled and not waited for.
    func withinDeadline<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T? {
        guard let deadline else { return try await Task { try await work() }.value }
        let clock = self.clock
        let end = clock.now + deadline
        let race = LockedValue(DeadlineRace<T>())
        return try await withCheckedThrowingContinuation { continuation in
            race.withLock { $0.continuation = continuation }
            let worker = Task {
                let result: Result<T?, any Error>
                do { result = .success(try await work()) } catch { result = .failure(error) }
                race.withLock { $0.finish() }?.resume(with: result)
                race.withLock { $0.timer }?.cancel()
            }
            let timer = Task {
                do { try await clock.sleep(untilElapsed: end) } catch { return }
                guard let continuation = race.withLock({ $0.finish() }) else { return }
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
}

/// Who of the work and the deadline answered first.
private struct DeadlineRace<T: Sendable> {
    var continuation: CheckedContinuation<T?, any Error>?
    var timer: Task<Void, Never>?

    /// The continuation, for the first to finish only.
    mutating func finish() -> CheckedContinuation<T?, any Error>? {
        defer { continuation = nil }
        return continuation
    }
}
