import BehaviorKitSync

extension TieredLookup {
    /// Asks the tiers from the flight's start on, in order, as its policy allows.
    func walk(_ key: Key, flight: Flight) async -> FlightResult<Value> {
        let policy = flight.policy
        var failures: [LookupTierFailure] = []
        var sourcesFailed = false
        for index in tiers.indices.dropFirst(flight.start) {
            if Task.isCancelled { return .cancelled }
            let tier = tiers[index]
            let isSource = tier.store == nil
            guard isSource ? policy.usesSources : policy.readsCaches else { continue }
            let began = clock.now
            if isSource, case .rejected(let retryAfter) = breakers.withLock({ $0[index]?.permission(at: began) }) {
                counters.withLock { $0.statistics.tiers[index].skipped += 1 }
                instruments?.tierSkipped(index)
                failures.append(
                    LookupTierFailure(tier: tier.name, error: CircuitOpenError(tier: tier.name, retryAfter: retryAfter))
                )
                sourcesFailed = true
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
                instruments?.tierAnswered(index, found: value != nil, latency: ended - began, key: key)
                if let value {
                    if policy.writesBack { await writeBack(value, for: key, above: index, unless: flight) }
                    return .found(value, tierIndex: index)
                }
            } catch {
                let ended = clock.now
                if Task.isCancelled {
                    breakers.withLock { $0[index]?.recordAbandoned() }
                    return .cancelled
                }
                let opened = breakers.withLock { breakers -> Duration? in
                    let wasOpen = breakers[index]?.isOpen ?? false
                    breakers[index]?.recordFailure(at: ended)
                    return !wasOpen && breakers[index]?.isOpen == true ? breakers[index]?.policy.coolDown : nil
                }
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
                if !isStale(flight) { negativeCache.setValue(true, forKey: key) }
            }
        }
        return .notFound(failures, sourcesFailed: sourcesFailed)
    }

    /// Whether `flight` was invalidated or overwritten while under way.
    func isStale(_ flight: Flight?) -> Bool {
        guard let flight else { return false }
        return flights.withLock { _ in flight.isStale }
    }

    /// Writes `value` into the stores above tier `index`, the nearest first (the way back up
    /// the chain), unless `flight` was invalidated or overwritten on its way: an `invalidate`
    /// or a `store` made during a load wins over the load's write-back. A store that fails is
    /// counted; the lookup still answers.
    ///
    /// Holds the key's gate, so that a write-back, an invalidation and a store of one key never
    /// interleave their writes.
    func writeBack(_ value: Value, for key: Key, above index: Int, unless flight: Flight?) async {
        await gates.withGate(key) {
            guard !isStale(flight) else { return }
            for storeIndex in tiers.indices.prefix(index).reversed() {
                guard let store = tiers[storeIndex].store else { continue }
                do {
                    if storeIndex == 0, let front, let refresh {
                        front.setValue(
                            value, forKey: key, cost: nil, timeToLive: refresh.expiresAfter,
                            refreshAfter: refresh.refreshAfter)
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
