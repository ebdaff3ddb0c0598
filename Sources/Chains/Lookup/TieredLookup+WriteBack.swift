import BehaviorKitSync

extension TieredLookup {
    /// Writes `value` into the stores above tier `index`, the nearest first (the way back up
    /// the chain), unless `flight` was invalidated or overwritten on its way: an `invalidate`
    /// or a `store` made during a load wins over the load's write-back. A store that fails is
    /// counted; the lookup still answers.
    ///
    /// Holds the key's gate, so that a write-back, an invalidation and a store of one key never
    /// interleave their writes.
    func writeBack(_ value: Value, for key: Key, above index: Int, unless flight: Flight<Value>?) async {
        await gates.withGate(key) {
            guard !flights.isStale(flight) else { return }
            for storeIndex in tiers.indices.prefix(index).reversed() {
                guard let store = tiers[storeIndex].store else { continue }
                do {
                    if storeIndex == 0, let refreshAhead {
                        refreshAhead.write(value, for: key)
                    } else {
                        try await store.store(value, for: key)
                    }
                    counters.withLock { $0.statistics.tiers[storeIndex].writes += 1 }
                } catch {
                    counters.withLock { counters in
                        counters.statistics.tiers[storeIndex].writeErrors += 1
                        counters.statistics.tiers[storeIndex].lastWriteError = "\(error)"
                    }
                    instruments?.writeFailed(storeIndex, error, key: key)
                }
            }
        }
    }
}
