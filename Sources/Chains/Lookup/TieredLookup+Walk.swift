import BehaviorKitSync

extension TieredLookup {
    /// Asks the tiers from tier `start` on, in order, as the flight's policy allows.
    func walk(_ key: Key, flight: Flight<Value>, from start: Int) async -> FlightResult<Value> {
        let policy = flight.policy
        var failures: [LookupTierFailure] = []
        var sourcesFailed = false
        for index in tiers.indices.dropFirst(start) {
            if Task.isCancelled { return .cancelled }
            let tier = tiers[index]
            let isSource = tier.store == nil
            guard isSource ? policy.usesSources : policy.readsCaches else { continue }
            let began = clock.now
            var opened: Duration?
            do {
                let value =
                    if let breaker = tier.breaker {
                        try await breaker.lookup(key, at: began, opened: &opened)
                    } else {
                        try await tier.tier.lookup(key)
                    }
                let ended = clock.now
                counters.withLock { counters in
                    counters.record(ended - began, tier: index)
                    if value == nil {
                        counters.statistics.tiers[index].misses += 1
                    } else {
                        counters.statistics.tiers[index].hits += 1
                    }
                }
                instruments?.tierAnswered(index, found: value != nil, latency: ended - began, key: key)
                if let value {
                    if policy.writesBack { await writeBack(value, for: key, above: index, unless: flight) }
                    return .found(value, tierIndex: index)
                }
            } catch let error as CircuitOpenError {
                counters.withLock { $0.statistics.tiers[index].skipped += 1 }
                instruments?.tierSkipped(index)
                failures.append(LookupTierFailure(tier: tier.name, error: error))
                if isSource { sourcesFailed = true }
            } catch {
                let ended = clock.now
                if Task.isCancelled { return .cancelled }
                counters.withLock { counters in
                    counters.record(ended - began, tier: index)
                    counters.statistics.tiers[index].errors += 1
                }
                instruments?.tierFailed(index, error, latency: ended - began, key: key, opened: opened)
                failures.append(LookupTierFailure(tier: tier.name, error: error))
                if isSource { sourcesFailed = true }
            }
        }
        counters.withLock {
            if sourcesFailed { $0.statistics.unavailable += 1 } else { $0.statistics.notFound += 1 }
        }
        instruments?.reachedEnd(sourcesFailed: sourcesFailed, key: key)
        // Only an authoritative "not found" is remembered: every source asked, none failed.
        if failures.isEmpty && policy.usesSources, let negativeCache {
            await gates.withGate(key) {
                if !flights.isStale(flight) { negativeCache.remember(key) }
            }
        }
        return .notFound(failures, sourcesFailed: sourcesFailed)
    }
}
