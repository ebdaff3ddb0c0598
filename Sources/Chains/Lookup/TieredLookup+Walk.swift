import BehaviorKitSync

extension TieredLookup {
    /// Asks the tiers from `start` on, in order, as `policy` allows.
    func walk(_ key: Key, policy: LookupPolicy, from start: Int) async -> FlightResult<Value> {
        var failures: [LookupTierFailure] = []
        for index in tiers.indices.dropFirst(start) {
            let tier = tiers[index]
            let isSource = tier.store == nil
            guard isSource ? policy.usesSources : policy.readsCaches else { continue }
            let began = clock.now
            if isSource, case .rejected(let retryAfter) = breakers.withLock({ $0[index]?.permission(at: began) }) {
                counters.withLock { $0.statistics.tiers[index].skipped += 1 }
                failures.append(
                    LookupTierFailure(tier: tier.name, error: CircuitOpenError(tier: tier.name, retryAfter: retryAfter))
                )
                continue
            }
            do {
                let value = try await tier.tier.lookup(key)
                let ended = clock.now
                breakers.withLock { $0[index]?.recordSuccess() }
                counters.withLock { counters in
                    counters.record(ended - began, tier: index)
                    if value == nil {
                        counters.statistics.tiers[index].misses += 1
                    } else {
                        counters.statistics.tiers[index].hits += 1
                    }
                }
                if let value {
                    if policy.writesBack { await writeBack(value, for: key, above: index) }
                    return .found(value, tierIndex: index)
                }
            } catch {
                let ended = clock.now
                if Task.isCancelled {
                    breakers.withLock { $0[index]?.recordAbandoned() }
                    return .cancelled
                }
                breakers.withLock { $0[index]?.recordFailure(at: ended) }
                counters.withLock { counters in
                    counters.record(ended - began, tier: index)
                    counters.statistics.tiers[index].errors += 1
                }
                failures.append(LookupTierFailure(tier: tier.name, error: error))
            }
        }
        counters.withLock { $0.statistics.notFound += 1 }
        // Only an authoritative "not found" is remembered: every source asked, none failed.
        if failures.isEmpty && policy.usesSources, let negativeCache {
            negativeCache.setValue(true, forKey: key)
        }
        return .notFound(failures)
    }

    /// Writes `value` into the stores above tier `index`, the nearest first (the way back up
    /// the chain). A store that fails is counted; the lookup still answers.
    func writeBack(_ value: Value, for key: Key, above index: Int) async {
        for storeIndex in tiers.indices.prefix(index).reversed() {
            guard let store = tiers[storeIndex].store else { continue }
            do {
                try await store.store(value, for: key)
                counters.withLock { $0.statistics.tiers[storeIndex].writes += 1 }
            } catch {
                counters.withLock { $0.statistics.tiers[storeIndex].writeErrors += 1 }
            }
        }
    }
}
