import BehaviorKitSync

/// What one walk of the tiers found, shared with the lookups that joined it.
enum FlightResult<Value: Sendable>: Sendable {
    case found(Value, tierIndex: Int)
    case notFound([LookupTierFailure])
    case cancelled
}

/// The lookups of one key (and policy) under way: one walks the tiers, the others wait.
struct FlightKey<Key: Hashable & Sendable>: Hashable, Sendable {
    let key: Key
    let policy: LookupPolicy
}

/// The lookups waiting for a walk. Only touched under the flights lock.
final class Flight<Value: Sendable>: @unchecked Sendable {
    var waiters: [CheckedContinuation<FlightResult<Value>?, Never>] = []
}

extension TieredLookup {
    typealias FlightKey = Chains.FlightKey<Key>
    typealias Flight = Chains.Flight<Value>

    /// The slow path: the remembered "not found", then one walk per key from tier `start` on.
    @usableFromInline
    func lookUpBelowFront(
        _ key: Key, policy: LookupPolicy, from start: Int
    ) async throws(LookupError<Key>) -> LookupAnswer<Value> {
        if policy.readsCaches, let negativeCache, negativeCache.value(forKey: key) != nil {
            counters.withLock { $0.statistics.rememberedNotFound += 1 }
            throw LookupError(code: .notFound, key: key, isRemembered: true)
        }
        let flightKey = FlightKey(key: key, policy: policy)
        while true {
            if Task.isCancelled { throw LookupError(code: .cancelled, key: key) }
            // Joins the walk under way, or (resumed at once with nil) becomes the one walking.
            let joined = await withCheckedContinuation {
                (continuation: CheckedContinuation<FlightResult<Value>?, Never>) in
                let isLeader = flights.withLock { flights -> Bool in
                    if let flight = flights[flightKey] {
                        flight.waiters.append(continuation)
                        counters.withLock { $0.statistics.coalesced += 1 }
                        return false
                    }
                    flights[flightKey] = Flight()
                    return true
                }
                if isLeader { continuation.resume(returning: nil) }
            }
            let result: FlightResult<Value>
            if let joined {
                // The walk was cancelled with its own task, not this one: walk again.
                if case .cancelled = joined { continue }
                result = joined
            } else {
                result = await walk(key, policy: policy, from: start)
                let waiters = flights.withLock { $0.removeValue(forKey: flightKey)?.waiters ?? [] }
                for waiter in waiters { waiter.resume(returning: result) }
            }
            switch result {
            case .found(let value, let index):
                return LookupAnswer(value: value, tier: tiers[index].name, tierIndex: index)
            case .notFound(let failures):
                throw LookupError(code: .notFound, key: key, failures: failures)
            case .cancelled:
                throw LookupError(code: .cancelled, key: key)
            }
        }
    }
}
