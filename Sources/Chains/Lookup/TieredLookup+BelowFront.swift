import BehaviorKitSync

extension TieredLookup {
    /// The slow path: the remembered "not found", then one walk per key from tier `start` on,
    /// shared by the lookups of the key made while it runs (single-flight).
    @usableFromInline
    func lookUpBelowFront(
        _ key: Key, policy: LookupPolicy, from start: Int
    ) async throws(LookupError<Key>) -> LookupAnswer<Value> {
        if policy.readsCaches, let negativeCache, negativeCache.contains(key) {
            counters.withLock { $0.statistics.rememberedNotFound += 1 }
            instruments?.rememberedNotFound()
            throw LookupError(code: .notFound, key: key, isRemembered: true)
        }
        let result = await flights.result(for: key, policy: policy, joined: countCoalesced) { [self] flight in
            await walk(key, flight: flight, from: start)
        }
        switch result {
        case .found(let value, let index):
            return LookupAnswer(value: value, tier: tiers[index].name, tierIndex: index)
        case .notFound(let failures, let sourcesFailed):
            throw LookupError(code: sourcesFailed ? .unavailable : .notFound, key: key, failures: failures)
        case .cancelled:
            throw LookupError(code: .cancelled, key: key)
        }
    }

    /// A lookup joined a walk under way.
    private func countCoalesced() {
        counters.withLock { $0.statistics.coalesced += 1 }
        instruments?.coalesced()
    }
}
