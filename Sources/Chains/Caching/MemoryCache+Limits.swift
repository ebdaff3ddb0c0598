import BehaviorKitSync

extension MemoryCache {
    /// The most entries kept; 0 stores nothing, and a negative limit is 0. Lowering it removes
    /// the expired entries, then evicts the least recently used ones, at once.
    ///
    /// ```swift
    /// cache.countLimit = 100   // under memory pressure
    /// ```
    public var countLimit: Int {
        get { storage.withLock { $0.countLimit } }
        set {
            let clock = self.clock
            notify(
                storage.withLock { storage in
                    storage.countLimit = max(0, newValue)
                    storage.evict(toCount: storage.countLimit, toCost: storage.costLimit, now: { clock.now })
                    return storage.takeRemovals()
                })
        }
    }

    /// The most total cost kept, or `nil` for no cost limit. Lowering it removes the expired
    /// entries, then evicts the least recently used ones, at once.
    public var costLimit: Int? {
        get { storage.withLock { $0.costLimit } }
        set {
            let clock = self.clock
            notify(
                storage.withLock { storage in
                    storage.costLimit = newValue.map { max(0, $0) }
                    storage.evict(toCount: storage.countLimit, toCost: storage.costLimit, now: { clock.now })
                    return storage.takeRemovals()
                })
        }
    }

    /// How long an entry lives unless its insertion says otherwise, or `nil` for ever. A change
    /// applies to the entries stored after it.
    public var timeToLive: Duration? {
        get { storage.withLock { $0.timeToLive } }
        set { storage.withLock { $0.timeToLive = newValue } }
    }

    /// Removes the expired entries, then evicts the least recently used ones, until at most
    /// `count` remain; the limit stays.
    ///
    /// ```swift
    /// cache.trim(toCount: cache.count / 2)   // after a memory warning
    /// ```
    public func trim(toCount count: Int) {
        let clock = self.clock
        notify(
            storage.withLock { storage in
                storage.evict(toCount: max(0, count), toCost: nil, now: { clock.now })
                return storage.takeRemovals()
            })
    }

    /// Removes the expired entries, then evicts the least recently used ones, until their total
    /// cost is at most `cost`; the limit stays.
    public func trim(toCost cost: Int) {
        let clock = self.clock
        notify(
            storage.withLock { storage in
                storage.evict(toCount: .max, toCost: max(0, cost), now: { clock.now })
                return storage.takeRemovals()
            })
    }
}
