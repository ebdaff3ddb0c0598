import BehaviorKitSync

extension TieredLookup {
    /// Stores `value` for `key` in every cache tier and forgets a remembered "not found".
    ///
    /// A load of `key` under way when the store is made does not write its value back over
    /// this one, and lookups from now on do not join it.
    ///
    /// ```swift
    /// await movies.store(edited, for: 42)   // wins over a load of 42 already under way
    /// ```
    public func store(_ value: Value, for key: Key) async {
        flights.invalidate(key)
        await gates.withGate(key) { negativeCache?.forget(key) }
        await writeBack(value, for: key, above: tiers.count, unless: nil)
    }

    /// Removes `key` from every cache tier and forgets a remembered "not found".
    ///
    /// A load of `key` under way when the invalidation is made still answers the lookups waiting
    /// for it, but does not write its (stale) value back, and lookups from now on start a load
    /// of their own.
    ///
    /// ```swift
    /// await movies.invalidate(42)   // the catalog changed movie 42
    /// ```
    public func invalidate(_ key: Key) async {
        flights.invalidate(key)
        await gates.withGate(key) {
            negativeCache?.forget(key)
            for (index, tier) in tiers.enumerated() {
                guard let store = tier.store else { continue }
                do {
                    try await store.remove(key)
                } catch {
                    counters.withLock { counters in
                        counters.statistics.tiers[index].writeErrors += 1
                        counters.statistics.tiers[index].lastWriteError = "\(error)"
                    }
                    instruments?.writeFailed(index, error, key: key)
                }
            }
        }
    }
}
