/// The entries of a ``MemoryCache`` in recency order: a dictionary from key to slot, and a
/// doubly linked list threaded through an array of slots (no allocation per entry once warm).
/// It holds the cache's limits too, so that one lock covers them.
///
/// Not thread-safe: ``MemoryCache`` keeps it under a lock.
@usableFromInline
struct LRUStorage<Key: Hashable, Value> {
    @usableFromInline
    struct Entry {
        @usableFromInline var key: Key
        @usableFromInline var value: Value?
        @usableFromInline var cost: Int
        /// The next time something happens to the entry, the only time a hit reads: its expiry,
        /// or, when earlier, the time a lookup whose front tier the cache is should reload it in
        /// the background. `nil` for an entry that neither expires nor is refreshed. (The expiry
        /// itself is in ``LRUStorage/expiries``, out of the hit path's way.)
        @usableFromInline var deadline: Duration?
        /// The next more recently used slot, or -1.
        @usableFromInline var newer: Int
        /// The next less recently used slot, or -1.
        @usableFromInline var older: Int
    }

    @usableFromInline var slots: [Key: Int] = [:]
    @usableFromInline var entries: [Entry] = []
    /// Each slot's expiry, read only once its deadline is reached.
    @usableFromInline var expiries: [Duration?] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var newest = -1
    @usableFromInline var oldest = -1
    @usableFromInline var totalCost = 0
    /// No entry expires before this (`nil`: none expires), so that an eviction reads the clock and
    /// looks for expired entries only once one may have expired.
    @usableFromInline var earliestExpiry: Duration?
    @usableFromInline var evictions = 0
    /// The reads of a ``TieredLookup`` whose front tier this cache is.
    @usableFromInline var frontCounters = FrontReadCounters()

    @usableFromInline var countLimit: Int
    @usableFromInline var costLimit: Int?
    @usableFromInline var timeToLive: Duration?

    /// Whether removed entries are kept in ``removals`` for the cache's listener.
    @usableFromInline let collectsRemovals: Bool
    /// Entries removed since the listener was last told.
    @usableFromInline var removals: [(key: Key, value: Value, cause: RemovalCause)] = []

    @usableFromInline
    init(countLimit: Int, costLimit: Int?, timeToLive: Duration?, collectsRemovals: Bool) {
        self.countLimit = countLimit
        self.costLimit = costLimit
        self.timeToLive = timeToLive
        self.collectsRemovals = collectsRemovals
    }

    @usableFromInline
    var count: Int { slots.count }

    /// The value for `key`, made the most recently used; `nil` (and the entry removed) when its
    /// expiry is reached. `now` is read only for an entry that can expire or be refreshed.
    ///
    /// With `claimsRefresh`, an entry whose refresh time is reached sets `refreshDue` and is
    /// not due again (the caller reloads it).
    @inlinable
    @inline(__always)
    mutating func value(
        forKey key: Key, now: () -> Duration, claimsRefresh: Bool, refreshDue: inout Bool
    ) -> Value? {
        guard let slot = slots[key] else { return nil }
        if let deadline = entries[slot].deadline {
            let time = now()
            if time >= deadline {
                if let expiry = expiries[slot], time >= expiry {
                    remove(slot: slot, cause: .expired)
                    return nil
                }
                if claimsRefresh { claimRefresh(slot, at: time, refreshDue: &refreshDue) }
            }
        }
        moveToFront(slot)
        return entries[slot].value
    }

    /// The value for `key`, as ``value(forKey:now:claimsRefresh:refreshDue:)`` without refresh.
    @inlinable
    mutating func value(forKey key: Key, now: () -> Duration) -> Value? {
        var refreshDue = false
        return value(forKey: key, now: now, claimsRefresh: false, refreshDue: &refreshDue)
    }

    /// A deadline reached before the expiry is a refresh: claimed once, then the deadline is the
    /// expiry.
    @usableFromInline
    mutating func claimRefresh(_ slot: Int, at time: Duration, refreshDue: inout Bool) {
        guard entries[slot].deadline != expiries[slot] else { return }
        entries[slot].deadline = expiries[slot]
        refreshDue = true
    }

    /// Makes the entry for `key` due for a refresh at `time` (after a refresh that failed).
    mutating func setRefresh(at time: Duration, forKey key: Key) {
        guard let slot = slots[key] else { return }
        entries[slot].deadline = Self.deadline(expiry: expiries[slot], refreshAt: time)
    }

    /// The earlier of the two; a refresh at or after the expiry never happens.
    static func deadline(expiry: Duration?, refreshAt: Duration?) -> Duration? {
        guard let refreshAt else { return expiry }
        guard let expiry else { return refreshAt }
        return Swift.min(refreshAt, expiry)
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

    @usableFromInline
    mutating func unlink(_ slot: Int) {
        let newer = entries[slot].newer
        let older = entries[slot].older
        if newer >= 0 { entries[newer].older = older } else { newest = older }
        if older >= 0 { entries[older].newer = newer } else { oldest = newer }
    }

    /// Links `slot` as the most recently used.
    mutating func link(_ slot: Int) {
        entries[slot].newer = -1
        entries[slot].older = newest
        if newest >= 0 { entries[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    /// Inserts or replaces the value for `key` as the most recently used, then, while a limit is
    /// passed, removes the expired entries, then the least recently used ones (see ``evict``). A
    /// value whose cost alone passes the cost limit is refused (and the value it would replace
    /// removed), evicting nothing else.
    mutating func set(
        _ value: Value, forKey key: Key, cost: Int, expiry: Duration?, refreshAt: Duration?, now: () -> Duration
    ) {
        let deadline = Self.deadline(expiry: expiry, refreshAt: refreshAt)
        if let costLimit, cost > costLimit {
            if let slot = slots[key] { remove(slot: slot, cause: .replaced) }
            if collectsRemovals { removals.append((key, value, .size)) }
            return
        }
        if let slot = slots[key] {
            if collectsRemovals, let old = entries[slot].value { removals.append((key, old, .replaced)) }
            totalCost = totalCost &+ cost &- entries[slot].cost
            entries[slot].value = value
            entries[slot].cost = cost
            expiries[slot] = expiry
            entries[slot].deadline = deadline
            moveToFront(slot)
        } else {
            let entry = Entry(
                key: key, value: value, cost: cost, deadline: deadline, newer: -1, older: -1)
            let slot: Int
            if let free = freeSlots.popLast() {
                slot = free
                entries[slot] = entry
                expiries[slot] = expiry
            } else {
                slot = entries.count
                entries.append(entry)
                expiries.append(expiry)
            }
            slots[key] = slot
            totalCost = totalCost &+ cost
            link(slot)
        }
        if let expiry { earliestExpiry = earliestExpiry.map { Swift.min($0, expiry) } ?? expiry }
        evict(toCount: countLimit, toCost: costLimit, now: now)
    }

    /// Removes the entry in `slot` and returns its value.
    @usableFromInline
    @discardableResult
    mutating func remove(slot: Int, cause: RemovalCause) -> Value? {
        unlink(slot)
        let key = entries[slot].key
        slots[key] = nil
        totalCost = totalCost &- entries[slot].cost
        let value = entries[slot].value
        entries[slot].value = nil
        expiries[slot] = nil
        entries[slot].deadline = nil
        freeSlots.append(slot)
        if collectsRemovals, let value { removals.append((key, value, cause)) }
        return value
    }

    /// Removes entries until at most `countLimit` remain and their total cost is at most
    /// `costLimit`: the expired ones first (as Caffeine does: an expired entry never costs a live
    /// one its place), then the least recently used. `now` is read only when an entry may have
    /// expired.
    ///
    /// - Complexity: O(*k*) for *k* entries evicted; O(*n*) when an entry may have expired.
    mutating func evict(toCount countLimit: Int, toCost costLimit: Int?, now: () -> Duration) {
        guard count > countLimit || totalCost > (costLimit ?? .max) else { return }
        if let earliestExpiry {
            let time = now()
            if time >= earliestExpiry { removeExpired(now: time) }
        }
        while oldest >= 0 && (count > countLimit || totalCost > (costLimit ?? .max)) {
            remove(slot: oldest, cause: .size)
            evictions += 1
        }
    }

    /// Removes every entry whose expiry is reached, and learns when the next one expires.
    mutating func removeExpired(now: Duration) {
        var earliest: Duration?
        var slot = oldest
        while slot >= 0 {
            let newer = entries[slot].newer
            if let expiry = expiries[slot] {
                if now >= expiry {
                    remove(slot: slot, cause: .expired)
                } else {
                    earliest = earliest.map { Swift.min($0, expiry) } ?? expiry
                }
            }
            slot = newer
        }
        earliestExpiry = earliest
    }

    /// Removes every entry.
    mutating func removeAll() {
        if collectsRemovals {
            var slot = oldest
            while slot >= 0 {
                if let value = entries[slot].value { removals.append((entries[slot].key, value, .explicit)) }
                slot = entries[slot].newer
            }
        }
        (slots, entries, expiries, freeSlots, newest, oldest, totalCost) = ([:], [], [], [], -1, -1, 0)
        earliestExpiry = nil
    }

    /// The removals since the last call, for the listener.
    mutating func takeRemovals() -> [(key: Key, value: Value, cause: RemovalCause)] {
        guard !removals.isEmpty else { return [] }
        defer { removals = [] }
        return removals
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
