import BehaviorKitSync

/// The task of a store's watcher, which wakes this process's waiters (queue workers, callers
/// waiting on a record) on what other processes wrote: it starts at most once, at the first
/// ``start(_:)``, and never after ``stop()``.
package final class WatcherTask: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var stopped = false
    }

    private let state = LockedValue(State())

    /// A watcher's task, not started.
    package init() {}

    /// Starts `watch` as the task, unless it started already or was stopped.
    package func start(_ watch: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard state.task == nil, !state.stopped else { return }
            state.task = Task { await watch() }
        }
    }

    /// Stops for good: cancels the task and waits until it returned.
    package func stop() async {
        let task = state.withLock { state in
            state.stopped = true
            return state.task
        }
        task?.cancel()
        await task?.value
    }

    /// Cancels the task without waiting for it (from a `deinit`).
    package func cancel() {
        state.withLock { $0.task }?.cancel()
    }
}
