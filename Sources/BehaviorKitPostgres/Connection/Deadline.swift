import BehaviorKitSync

/// Bounded waits: `work` runs in a task of its own, and the caller gets its answer, or `nil`
/// once the deadline passes, whichever comes first.
///
/// A task group would not do: it waits for every child, and so for a query whose answer never
/// comes. Here the late task is cancelled and left behind; `onAbandon` runs so that the caller can
/// free what the task holds (close its connection, which fails its query).
enum Deadline {
    static func run<T: Sendable, C: Clock<Duration>>(
        until deadline: C.Instant, on clock: C, onAbandon: @escaping @Sendable () -> Void = {},
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        let box = FirstAnswer<T?>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                box.set(continuation)
                let worker = Task {
                    do { box.answer(.success(try await work())) } catch { box.answer(.failure(error)) }
                }
                let timer = Task {
                    do {
                        try await clock.sleep(until: deadline, tolerance: nil)
                    } catch {
                        return  // the work answered first
                    }
                    if box.answer(.success(nil)) {
                        worker.cancel()
                        onAbandon()
                    }
                }
                box.onAnswer { timer.cancel() }
                box.onCancel {
                    worker.cancel()
                    timer.cancel()
                }
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// One continuation, resumed once by whichever answers first.
final class FirstAnswer<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var early: Result<T, any Error>?
        var answered = false
        var whenAnswered: (@Sendable () -> Void)?
        var whenCancelled: (@Sendable () -> Void)?
        var cancelled = false
    }

    private let state = LockedValue(State())

    func set(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state -> Result<T, any Error>? in
            if state.answered { return state.early ?? .failure(CancellationError()) }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    /// Answers, unless an answer came first; returns whether this one was taken.
    @discardableResult
    func answer(_ result: Result<T, any Error>) -> Bool {
        let (taken, continuation, then) = state.withLock {
            state -> (Bool, CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
            guard !state.answered else { return (false, nil, nil) }
            state.answered = true
            defer { state.continuation = nil }
            if state.continuation == nil { state.early = result }
            return (true, state.continuation, state.whenAnswered)
        }
        continuation?.resume(with: result)
        then?()
        return taken
    }

    func onAnswer(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.answered { return true }
            state.whenAnswered = action
            return false
        }
        if now { action() }
    }

    func onCancel(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.cancelled { return true }
            state.whenCancelled = action
            return false
        }
        if now { action() }
    }

    func cancel() {
        let action = state.withLock { state -> (@Sendable () -> Void)? in
            state.cancelled = true
            return state.whenCancelled
        }
        answer(.failure(CancellationError()))
        action?()
    }
}
