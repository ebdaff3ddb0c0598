import BehaviorKitSync

/// One continuation, resumed once by whichever answers first: the work, a timer, a failure
/// the pool logged, or the caller's cancellation. A task group would not do for such races: it
/// waits for every child, and so for a query whose answer never comes.
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

    /// Answers with `CancellationError`, and runs the action of ``onCancel(_:)``, unless an
    /// answer came first.
    func cancel() {
        guard answer(.failure(CancellationError())) else { return }
        let action = state.withLock { state -> (@Sendable () -> Void)? in
            state.cancelled = true
            return state.whenCancelled
        }
        action?()
    }
}
