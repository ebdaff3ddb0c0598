public import BehaviorKitSync

/// An in-memory cache with least-recently-used eviction, a count limit, an optional cost limit
/// and an optional time-to-live, safe to use from many tasks.
///
/// Eviction is exact LRU: every hit makes its entry the most recently used, and when a limit
/// is passed the expired entries go first, then the least recently used. Time-to-live is measured on the clock
/// you inject and checked on **every** read: an expired value is never returned. The limits
/// can change while the cache is in use, and a listener hears of every entry that leaves, with
/// its ``RemovalCause`` (as Caffeine's removal listener).
///
/// ```swift
/// let cache = MemoryCache<Int, Movie>(countLimit: 1_000, timeToLive: .seconds(60))
/// cache.setValue(movie, forKey: 42)
/// cache.value(forKey: 42)        // movie, for the next 60 seconds
/// cache.countLimit = 100         // evicts the least recently used down to 100 at once
/// ```
///
/// A `MemoryCache` is also a ``LookupStore``, the usual first tier of a ``TieredLookup``.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// What the removal listener is called with.
    public typealias RemovalListener = @Sendable (CacheRemoval<Key, Value>) -> Void

    /// The tier's name in statistics and errors.
    public let name: String

    /// The cost of a value stored without a cost of its own (by ``store(_:for:)``, for one).
    public let weigher: (@Sendable (Key, Value) -> Int)?

    @usableFromInline
    let storage: LockedValue<LRUStorage<Key, Value>>

    @usableFromInline
    let clock: ElapsedClock

    @usableFromInline
    let onRemoval: RemovalListener?

    /// Creates an empty cache.
    ///
    /// ```swift
    /// let images = MemoryCache<URL, Data>(countLimit: 500, costLimit: 50 << 20, weigher: { _, data in data.count })
    /// ```
    ///
    /// - Parameters:
    ///   - name: the tier's name in statistics, `memory` by default.
    ///   - countLimit: the most entries kept. With 0 the cache stores nothing: each entry is
    ///     evicted as it is stored (cause ``RemovalCause/size``), as Caffeine's `maximumSize(0)`,
    ///     so that a lookup in front of which it stands always reads through. A negative limit is 0.
    ///   - costLimit: the most total cost kept.
    ///   - timeToLive: how long an entry lives; `nil` for ever.
    ///   - weigher: the cost of a value stored without one (such as its size in bytes); without
    ///     it, such a value costs 0.
    ///   - clock: the clock time-to-live is measured on.
    ///   - onRemoval: called with each entry that leaves the cache and why, after the cache's
    ///     lock is released (so it may use the cache), on the task that caused the removal.
    public init(
        name: String = "memory", countLimit: Int = 1_000, costLimit: Int? = nil, timeToLive: Duration? = nil,
        weigher: (@Sendable (Key, Value) -> Int)? = nil, clock: some Clock<Duration> = ContinuousClock(),
        onRemoval: RemovalListener? = nil
    ) {
        self.name = name
        self.weigher = weigher
        self.storage = LockedValue(
            LRUStorage(
                countLimit: max(0, countLimit), costLimit: costLimit.map { max(0, $0) }, timeToLive: timeToLive,
                collectsRemovals: onRemoval != nil))
        self.clock = ElapsedClock(clock)
        self.onRemoval = onRemoval
    }

    /// The value for `key`, or `nil` when it is absent or expired; a hit makes the entry the
    /// most recently used.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func value(forKey key: Key) -> Value? {
        let clock = self.clock
        let value = storage.withLock { $0.value(forKey: key, now: { clock.now }) }
        if value == nil, onRemoval != nil { notifyRemovals() }
        return value
    }

    /// Stores `value` for `key` as the most recently used entry, then, while a limit is passed,
    /// removes the expired entries (cause ``RemovalCause/expired``) and then evicts the least
    /// recently used ones.
    ///
    /// An entry whose cost alone passes the cost limit is not kept, and evicts nothing: the
    /// value it would have replaced is removed, the others stay.
    ///
    /// - Parameters:
    ///   - value: the value to keep.
    ///   - key: the key to keep it under; an entry already there is replaced.
    ///   - cost: what the entry counts towards ``costLimit`` (its size in bytes, say); `nil` for
    ///     the ``weigher``'s answer, or 0 without one. A negative cost counts as 0.
    ///   - timeToLive: how long this entry lives, instead of the cache's ``timeToLive``.
    /// - Complexity: O(1), amortised; O(*n*) when the cache is full and an entry may have
    ///   expired (the expired entries are then all removed).
    public func setValue(_ value: Value, forKey key: Key, cost: Int? = nil, timeToLive: Duration? = nil) {
        setValue(value, forKey: key, cost: cost, timeToLive: timeToLive, refreshAfter: nil)
    }

    /// ``setValue(_:forKey:cost:timeToLive:)``, with the entry due for a refresh by a lookup
    /// after `refreshAfter`.
    func setValue(_ value: Value, forKey key: Key, cost: Int?, timeToLive: Duration?, refreshAfter: Duration?) {
        let cost = max(0, cost ?? weigher?(key, value) ?? 0)
        let clock = self.clock
        let removals = storage.withLock { storage in
            let lifetime = timeToLive ?? storage.timeToLive
            let now = lifetime != nil || refreshAfter != nil ? clock.now : .zero
            storage.set(
                value, forKey: key, cost: cost, expiry: lifetime.map { now + $0 },
                refreshAt: refreshAfter.map { now + $0 }, now: { clock.now })
            return storage.takeRemovals()
        }
        notify(removals)
    }

    /// Removes the value for `key` and returns it, if there was one.
    @discardableResult
    public func removeValue(forKey key: Key) -> Value? {
        let (value, removals) = storage.withLock { storage in
            guard let slot = storage.slots[key] else { return (Value?.none, storage.takeRemovals()) }
            return (storage.remove(slot: slot, cause: .explicit), storage.takeRemovals())
        }
        notify(removals)
        return value
    }

    /// Removes every entry.
    public func removeAll() {
        notify(
            storage.withLock {
                $0.removeAll(); return $0.takeRemovals()
            })
    }

    /// Removes every expired entry now, rather than when it is next read or evicted.
    public func removeExpired() {
        let now = clock.now
        notify(
            storage.withLock {
                $0.removeExpired(now: now); return $0.takeRemovals()
            })
    }

    /// The number of entries, expired ones included until they are read or removed.
    public var count: Int { storage.withLock { $0.count } }

    /// The total cost of the entries.
    public var totalCost: Int { storage.withLock { $0.totalCost } }

    /// How many entries were evicted to respect the limits (by a store, a lower limit or a trim).
    public var evictionCount: Int { storage.withLock { $0.evictions } }

    /// The keys, most recently used first.
    ///
    /// - Complexity: O(*n*).
    public var keys: [Key] { storage.withLock { $0.keysByRecency } }

    /// Tells the listener of the removals made under the lock.
    func notify(_ removals: [(key: Key, value: Value, cause: RemovalCause)]) {
        guard let onRemoval, !removals.isEmpty else { return }
        for removal in removals {
            onRemoval(CacheRemoval(key: removal.key, value: removal.value, cause: removal.cause))
        }
    }

    /// Tells the listener of an expiry found by a read.
    @usableFromInline
    func notifyRemovals() {
        notify(storage.withLock { $0.takeRemovals() })
    }
}

extension MemoryCache: LookupStore {
    /// The cache itself: a ``TieredLookup`` whose first tier it is reads it on its fast path.
    public var memoryCache: MemoryCache<Key, Value>? { self }

    /// The value for `key`, as ``value(forKey:)``.
    public func lookup(_ key: Key) async throws -> Value? {
        value(forKey: key)
    }

    /// Stores `value` for `key` at the ``weigher``'s cost, as ``setValue(_:forKey:cost:timeToLive:)``.
    public func store(_ value: Value, for key: Key) async throws {
        setValue(value, forKey: key)
    }

    /// Removes the value for `key`, as ``removeValue(forKey:)``.
    public func remove(_ key: Key) async throws {
        removeValue(forKey: key)
    }
}
