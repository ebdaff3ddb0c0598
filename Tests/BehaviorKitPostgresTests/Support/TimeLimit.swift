import BehaviorKitSync

/// A test's work that ran past its time limit: it is left behind (cancelled), so that a hang
/// fails the test instead of stopping the run.
struct TimeLimitExceeded: Error, CustomStringConvertible {
    let limit: Duration
    let what: String
    var description: String { "\(what) did not finish within \(limit)" }
}

/// Runs `work` and returns what it returned, or throws ``TimeLimitExceeded`` once `limit` has
/// passed, leaving `work` behind (cancelled): a `withTaskGroup` would wait for it, and so hang
/// with it.
func withTimeLimit<T: Sendable>(
    _ limit: Duration, _ what: String = "the test", _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
    let answered = LockedValue<CheckedContinuation<T, any Error>?>(nil)
    let worker = LockedValue<Task<Void, Never>?>(nil)
    return try await withCheckedThrowingContinuation { continuation in
        answered.withLock { $0 = continuation }
        @Sendable func answer(_ result: Result<T, any Error>) {
            answered.withLock { continuation in
                defer { continuation = nil }
                return continuation
            }?.resume(with: result)
        }
        worker.withLock { task in
            task = Task {
                do { answer(.success(try await work())) } catch { answer(.failure(error)) }
            }
        }
        Task {
            try? await Task.sleep(for: limit)
            answer(.failure(TimeLimitExceeded(limit: limit, what: what)))
            worker.withLock { $0 }?.cancel()
        }
    }
}
