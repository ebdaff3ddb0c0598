import BehaviorKitSync

/// A gate a command waits at until the test opens it.
final class AsyncGate: Sendable {
    private struct State {
        var open = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var watchers: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedValue(State())

    func wait() async {
        await withCheckedContinuation { continuation in
            let (resumeNow, watchers) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                if state.open { return (true, []) }
                state.waiters.append(continuation)
                defer { state.watchers = [] }
                return (false, state.watchers)
            }
            watchers.forEach { $0.resume() }
            if resumeNow { continuation.resume() }
        }
    }

    /// Returns once something waits at the gate.
    func waitForWaiter() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if !state.waiters.isEmpty { return true }
                state.watchers.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}
