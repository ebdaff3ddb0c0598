import BehaviorKitSync

/// One async lock per key: the tasks that change one key's cached values take turns, in the
/// order they came, while other keys go on. Waiting does not end with a cancellation (what runs
/// under it is short and must finish).
final class KeyedGate<Key: Hashable & Sendable>: Sendable {
    /// The held keys, each with the tasks waiting for it.
    private let held = LockedValue<[Key: [CheckedContinuation<Void, Never>]]>([:])

    /// Runs `body` while holding the gate of `key`.
    @discardableResult
    func withGate<Result>(_ key: Key, _ body: () async -> Result) async -> Result {
        await acquire(key)
        defer { release(key) }
        return await body()
    }

    private func acquire(_ key: Key) async {
        let acquired = held.withLock { held -> Bool in
            guard held[key] == nil else { return false }
            held[key] = []
            return true
        }
        if acquired { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = held.withLock { held -> Bool in
                guard held[key] != nil else {
                    held[key] = []
                    return true
                }
                held[key]?.append(continuation)
                return false
            }
            if acquired { continuation.resume() }
        }
    }

    /// Hands the gate to the next task waiting for it, or opens it.
    private func release(_ key: Key) {
        let next = held.withLock { held -> CheckedContinuation<Void, Never>? in
            guard var waiters = held[key], !waiters.isEmpty else {
                held[key] = nil
                return nil
            }
            let next = waiters.removeFirst()
            held[key] = waiters
            return next
        }
        next?.resume()
    }
}
