/// Tells the callers waiting in this process that something happened here (a workflow's run
/// settled or published an event, a job settled, a durable machine committed a step): a
/// generation that grows with every signal, and the waiters to wake.
package final class WakeSignal: Sendable {
    private struct State {
        var generation = 0
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var cancelled: Set<Int> = []
    }

    private let state = LockedValue(State())

    package init() {}

    /// How many signals there were.
    package var generation: Int { state.withLock { $0.generation } }

    /// Wakes every waiter.
    package func signal() {
        let waiters = state.withLock { state in
            state.generation += 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns after a signal later than `generation`, or after `limit` on `clock`.
    package func wait(after generation: Int, upTo limit: Duration, on clock: ElapsedClock) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.next(after: generation) }
            group.addTask { try? await clock.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    private func next(after generation: Int) async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.generation != generation || state.cancelled.remove(id) != nil { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    // Not waiting yet (it will not start), unless a signal already woke it.
                    if state.generation == generation { state.cancelled.insert(id) }
                    return nil
                }
                return waiter
            }
            waiter?.resume()
        }
    }
}
