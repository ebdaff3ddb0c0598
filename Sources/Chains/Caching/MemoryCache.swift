public import BehaviorKitSync

/// An in-memory cache with least-recently-used eviction, a count limit, an optional cost limit
/// and an optional time-to-live, safe to use from many tasks.
///
/// Eviction is exact LRU: every hit makes its entry the most recently used, and when a limit
/// is passed the least recently used entries go first. Time-to-live is measured on the clock
/// you inject and checked on **every** read: an expired value is never returned.
///
/// ```swift
/// let cache = MemoryCache<Int, Movie>(countLimit: 1_000, timeToLive: .seconds(60))
/// cache.setValue(movie, forKey: 42)
/// cache.value(forKey: 42)        // movie, for the next 60 seconds
/// ```
///
/// A `MemoryCache` is also a ``LookupStore``, the usual first tier of a ``TieredLookup``.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The tier's name in statistics and errors.
    public let name: String
    /// The most entries kept.
    public let countLimit: Int
    /// The most total cost kept, or `nil` for no cost limit.
    public let costLimit: Int?
    /// How long an entry lives unless its insertion says otherwise, or `nil` for ever.
    public let timeToLive: Duration?

    @usableFromInline
    let storage = LockedValue(LRUStorage<Key, Value>())

    @usableFromInline
    let clock: ClockReader

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - name: the tier's name in statistics, `memory` by default.
    ///   - countLimit: the most entries kept (at least 1).
    ///   - costLimit: the most total cost kept, where each entry's cost is given when it is set.
    ///   - timeToLive: how long an entry lives; `nil` for ever.
    ///   - clock: the clock time-to-live is measured on.
    public init(
        name: String = "memory", countLimit: Int = 1_000, costLimit: Int? = nil, timeToLive: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.name = name
        self.countLimit = max(1, countLimit)
        self.costLimit = costLimit
        self.timeToLive = timeToLive
        self.clock = ClockReader(clock)
    }

    /// The value for `key`, or `nil` when it is absent or expired; a hit makes the entry the
    /// most recently used.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func value(forKey key: Key) -> Value? {
        let clock = self.clock
        return storage.withLock { $0.value(forKey: key, now: { clock.now }) }
    }

    /// Stores `value` for `key` as the most recently used entry, then evicts the least recently
    /// used entries while a limit is passed.
    ///
    /// An entry whose cost alone passes the cost limit is not kept.
    ///
    /// - Parameters:
    ///   - value: the value to keep.
    ///   - key: the key to keep it under; an entry already there is replaced.
    ///   - cost: what the entry counts towards ``costLimit`` (its size in bytes, say).
    ///   - timeToLive: how long this entry lives, instead of the cache's ``timeToLive``.
    /// - Complexity: O(1), amortised.
    public func setValue(_ value: Value, forKey key: Key, cost: Int = 0, timeToLive: Duration? = nil) {
        let lifetime = timeToLive ?? self.timeToLive
        let expiry = lifetime.map { clock.now + $0 }
        storage.withLock { storage in
            storage.set(value, forKey: key, cost: cost, expiry: expiry)
            storage.evict(countLimit: countLimit, costLimit: costLimit)
        }
    }

    /// Removes the value for `key` and returns it, if there was one.
    @discardableResult
    public func removeValue(forKey key: Key) -> Value? {
        storage.withLock { storage in
            guard let slot = storage.slots[key] else { return nil }
            return storage.remove(slot: slot)
        }
    }

    /// Removes every entry.
    public func removeAll() {
        storage.withLock { $0.removeAll() }
    }

    /// Removes every expired entry now, rather than when it is next read or evicted.
    public func removeExpired() {
        let now = clock.now
        storage.withLock { $0.removeExpired(now: now) }
    }

    /// The number of entries, expired ones included until they are read or removed.
    public var count: Int { storage.withLock { $0.count } }

    /// The total cost of the entries.
    public var totalCost: Int { storage.withLock { $0.totalCost } }

    /// How many entries were evicted to respect the limits.
    public var evictionCount: Int { storage.withLock { $0.evictions } }

    /// The keys, most recently used first.
    ///
    /// - Complexity: O(*n*).
    public var keys: [Key] { storage.withLock { $0.keysByRecency } }
}

extension MemoryCache: LookupStore {
    /// The value for `key`, as ``value(forKey:)``.
    public func lookup(_ key: Key) async throws -> Value? {
        value(forKey: key)
    }

    /// Stores `value` for `key` at cost 0, as ``setValue(_:forKey:cost:timeToLive:)``.
    public func store(_ value: Value, for key: Key) async throws {
        setValue(value, forKey: key)
    }

    /// Removes the value for `key`, as ``removeValue(forKey:)``.
    public func remove(_ key: Key) async throws {
        removeValue(forKey: key)
    }
}
