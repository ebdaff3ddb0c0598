/// The entries of a ``MemoryCache`` in recency order: a dictionary from key to slot, and a
/// doubly linked list threaded through an array of slots (no allocation per entry once warm).
///
/// Not thread-safe: ``MemoryCache`` keeps it under a lock.
@usableFromInline
struct LRUStorage<Key: Hashable, Value> {
    @usableFromInline
    struct Entry {
        @usableFromInline var key: Key
        @usableFromInline var value: Value?
        @usableFromInline var cost: Int
        @usableFromInline var expiry: Duration?
        /// The next more recently used slot, or -1.
        @usableFromInline var newer: Int
        /// The next less recently used slot, or -1.
        @usableFromInline var older: Int
    }

    @usableFromInline var slots: [Key: Int] = [:]
    @usableFromInline var entries: [Entry] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var newest = -1
    @usableFromInline var oldest = -1
    @usableFromInline var totalCost = 0
    @usableFromInline var evictions = 0
    /// The reads of a ``TieredLookup`` whose front tier this cache is.
    @usableFromInline var frontCounters = FrontReadCounters()

    @usableFromInline
    init() {}

    @usableFromInline
    var count: Int { slots.count }

    /// The value for `key`, made the most recently used; `nil` (and the entry removed) when its
    /// expiry is reached. `now` is read only for an entry that can expire.
    @inlinable
    mutating func value(forKey key: Key, now: () -> Duration) -> Value? {
        guard let slot = slots[key] else { return nil }
        if let expiry = entries[slot].expiry, now() >= expiry {
            remove(slot: slot)
            return nil
        }
        moveToFront(slot)
        return entries[slot].value
    }

    /// Unlinks `slot` and links it as the most recently used, in one pass over the slots'
    /// storage (the hit path: no bounds or uniqueness check per link).
    @inlinable
    mutating func moveToFront(_ slot: Int) {
        guard slot != newest else { return }
        var (newest, oldest) = (self.newest, self.oldest)
        entries.withUnsafeMutableBufferPointer { entries in
            let newer = entries[slot].newer
            let older = entries[slot].older
            if newer >= 0 { entries[newer].older = older } else { newest = older }
            if older >= 0 { entries[older].newer = newer } else { oldest = newer }
            entries[slot].newer = -1
            entries[slot].older = newest
            if newest >= 0 { entries[newest].newer = slot }
            newest = slot
            if oldest < 0 { oldest = slot }
        }
        (self.newest, self.oldest) = (newest, oldest)
    }

    @inlinable
    mutating func unlink(_ slot: Int) {
        let newer = entries[slot].newer
        let older = entries[slot].older
        if newer >= 0 { entries[newer].older = older } else { newest = older }
        if older >= 0 { entries[older].newer = newer } else { oldest = newer }
    }

    /// Links `slot` as the most recently used.
    @inlinable
    mutating func link(_ slot: Int) {
        entries[slot].newer = -1
        entries[slot].older = newest
        if newest >= 0 { entries[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    /// Inserts or replaces the value for `key` as the most recently used.
    mutating func set(_ value: Value, forKey key: Key, cost: Int, expiry: Duration?) {
        if let slot = slots[key] {
            totalCost += cost - entries[slot].cost
            entries[slot].value = value
            entries[slot].cost = cost
            entries[slot].expiry = expiry
            moveToFront(slot)
            return
        }
        let entry = Entry(key: key, value: value, cost: cost, expiry: expiry, newer: -1, older: -1)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            entries[slot] = entry
        } else {
            slot = entries.count
            entries.append(entry)
        }
        slots[key] = slot
        totalCost += cost
        link(slot)
    }

    /// Removes the entry in `slot` and returns its value.
    @usableFromInline
    @discardableResult
    mutating func remove(slot: Int) -> Value? {
        unlink(slot)
        slots[entries[slot].key] = nil
        totalCost -= entries[slot].cost
        let value = entries[slot].value
        entries[slot].value = nil
        entries[slot].expiry = nil
        freeSlots.append(slot)
        return value
    }

    /// Removes least recently used entries until at most `countLimit` remain and their total cost
    /// is at most `costLimit`.
    mutating func evict(countLimit: Int, costLimit: Int?) {
        while oldest >= 0 && (count > countLimit || totalCost > (costLimit ?? .max)) {
            remove(slot: oldest)
            evictions += 1
        }
    }

    /// Removes every entry whose expiry is reached.
    mutating func removeExpired(now: Duration) {
        var slot = oldest
        while slot >= 0 {
            let newer = entries[slot].newer
            if let expiry = entries[slot].expiry, now >= expiry { remove(slot: slot) }
            slot = newer
        }
    }

    mutating func removeAll() {
        let (evictions, frontCounters) = (self.evictions, self.frontCounters)
        self = LRUStorage()
        (self.evictions, self.frontCounters) = (evictions, frontCounters)
    }

    /// The keys, most recently used first.
    var keysByRecency: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        var slot = newest
        while slot >= 0 {
            keys.append(entries[slot].key)
            slot = entries[slot].older
        }
        return keys
    }
}

extension LRUStorage: Sendable where Key: Sendable, Value: Sendable {}
extension LRUStorage.Entry: Sendable where Key: Sendable, Value: Sendable {}
