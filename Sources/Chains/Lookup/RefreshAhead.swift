/// Refresh-ahead and stale-while-revalidate, the part of a ``TieredLookup`` that writes into its
/// front ``MemoryCache``: each value it writes there is marked with the ``RefreshPolicy``'s refresh
/// time and expiry, so that the fast path finds a value due for a reload (once) when it reads it.
struct RefreshAhead<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// When values are reloaded and expire.
    let policy: RefreshPolicy
    /// The cache the values are marked in.
    let front: MemoryCache<Key, Value>

    /// Writes `value` into the front cache, due for a reload after ``RefreshPolicy/refreshAfter``
    /// and expiring after ``RefreshPolicy/expiresAfter`` (or the cache's time-to-live).
    func write(_ value: Value, for key: Key) {
        front.setValue(
            value, forKey: key, cost: nil, timeToLive: policy.expiresAfter, refreshAfter: policy.refreshAfter)
    }

    /// After a reload that failed: the value stays, due for a reload again at its next read.
    func retryAtNextRead(_ key: Key) {
        front.refreshAtNextRead(key)
    }
}
