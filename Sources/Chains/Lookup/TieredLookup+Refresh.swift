import BehaviorKitSync

extension TieredLookup {
    /// Starts a reload of `key` on a task of its own (with ``LookupPolicy/reload``: the sources,
    /// written back into every cache), unless one is under way.
    @usableFromInline
    func refreshInBackground(_ key: Key) {
        let started = flights.launchInBackground(
            key, policy: .reload, work: { [self] flight in await walk(key, flight: flight, from: 0) },
            settle: { [self] result in await settleRefresh(of: key, result) })
        guard started else { return }
        counters.withLock { $0.statistics.refreshes += 1 }
        instruments?.refreshStarted()
    }

    /// After a background reload: a key the sources no longer have is removed; a reload that
    /// failed leaves the value due again at its next read.
    func settleRefresh(of key: Key, _ result: FlightResult<Value>) async {
        switch result {
        case .found:
            break
        case .notFound(_, sourcesFailed: false):
            await invalidate(key)
        case .notFound, .cancelled:
            counters.withLock { $0.statistics.failedRefreshes += 1 }
            instruments?.refreshFailed(key: key)
            refreshAhead?.retryAtNextRead(key)
        }
    }
}
