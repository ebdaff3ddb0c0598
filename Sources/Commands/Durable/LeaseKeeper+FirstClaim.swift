import BehaviorKitSync

/// A worker's first claim, which takes over the records of its owner's earlier incarnation, and
/// the begins of its own callers, which it must never take.
extension LeaseKeeper {
    /// Runs `claim`, the worker's claim, telling it whether to take over the records this
    /// worker's owner holds: only at its first claim, before it held or began anything (a new
    /// incarnation taking over from the one that stopped). A begin sent meanwhile by this worker
    /// (``beginning()``) waits for that claim to answer, and a claim after a begin takes over
    /// nothing: a record the worker just began is never taken from it by its own claim.
    func claiming<T>(_ claim: (_ takingOver: Bool) async throws -> T) async rethrows -> T {
        let takingOver = state.withLock { state in
            defer { state.everHeld = true }
            guard !state.everHeld else { return false }
            state.takingOver = true
            return true
        }
        guard takingOver else { return try await claim(false) }
        defer {
            let waiters = state.withLock { state in
                state.takingOver = false
                defer { state.beginWaiters = [] }
                return state.beginWaiters
            }
            waiters.forEach { $0.resume() }
        }
        return try await claim(true)
    }

    /// Call before a begin under this worker's lease is sent: returns once no claim that takes
    /// over this worker's records is under way, and keeps any later claim from taking over
    /// (``claiming(_:)``).
    func beginning() async {
        let clear = state.withLock { state in
            state.everHeld = true
            return !state.takingOver
        }
        if clear { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiting = state.withLock { state in
                guard state.takingOver else { return false }
                state.beginWaiters.append(continuation)
                return true
            }
            if !waiting { continuation.resume() }
        }
    }
}
