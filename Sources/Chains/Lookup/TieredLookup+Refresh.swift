import BehaviorKitSync

extension TieredLookup {
    /// The policy of a background refresh: the sources, written back into every cache.
    static var refreshPolicy: LookupPolicy { .reload }

    /// Starts a reload of `key` on a task of its own, unless one is under way.
    @usableFromInline
    func refreshInBackground(_ key: Key) {
        let policy = Self.refreshPolicy
        let started = flights.withLock { table -> Bool in
            guard table.joinable(key, policy: policy) == nil else { return false }
            counters.withLock { $0.statistics.refreshes += 1 }
            _ = launch(key, policy: policy, from: 0, isBackground: true, in: &table)
            return true
        }
        if started { instruments?.refreshStarted() }
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
            front?.refreshAtNextRead(key)
        }
    }
}
