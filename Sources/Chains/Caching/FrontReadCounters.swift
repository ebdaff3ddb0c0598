public import BehaviorKitSync

/// The reads a ``TieredLookup`` makes of its front ``MemoryCache`` on its fast path, counted
/// under the cache's own lock so that a hit takes one lock, not two.
///
/// Reading a clock costs about as much as a memory hit, so one read in ``sampleInterval`` is
/// timed, inside the cache's lock (the lock's acquisition is not in the figure).
@usableFromInline
struct FrontReadCounters: Sendable {
    @usableFromInline
    static var sampleInterval: Int { 64 }

    @usableFromInline var reads = 0
    @usableFromInline var misses = 0
    @usableFromInline var timedReads = 0
    @usableFromInline var totalLatency: Duration = .zero
    @usableFromInline var maxLatency: Duration = .zero

    @usableFromInline
    init() {}

    @inlinable
    mutating func record(_ latency: Duration) {
        timedReads += 1
        totalLatency += latency
        if latency > maxLatency { maxLatency = latency }
    }
}

extension LRUStorage {
    /// ``value(forKey:now:claimsRefresh:refreshDue:)``, counted in ``frontCounters`` and timed
    /// on `timing` once in ``FrontReadCounters/sampleInterval`` reads.
    @inlinable
    @inline(__always)
    mutating func frontValue(
        forKey key: Key, now: () -> Duration, timing: () -> Duration, refreshDue: inout Bool
    ) -> Value? {
        frontCounters.reads &+= 1
        let value: Value?
        if frontCounters.reads % FrontReadCounters.sampleInterval == 1 {
            let start = timing()
            value = self.value(forKey: key, now: now, claimsRefresh: true, refreshDue: &refreshDue)
            frontCounters.record(timing() - start)
        } else {
            value = self.value(forKey: key, now: now, claimsRefresh: true, refreshDue: &refreshDue)
        }
        if value == nil { frontCounters.misses &+= 1 }
        return value
    }
}

extension MemoryCache {
    /// The value for `key`, read on a ``TieredLookup``'s fast path and counted for its
    /// statistics; `refreshDue` is set when the entry is due for a refresh (once).
    @inlinable
    @inline(__always)
    func frontValue(forKey key: Key, timing: ElapsedClock, refreshDue: inout Bool) -> Value? {
        let clock = self.clock
        let value = storage.withLock {
            $0.frontValue(forKey: key, now: { clock.now }, timing: { timing.now }, refreshDue: &refreshDue)
        }
        if value == nil, onRemoval != nil { notifyRemovals() }
        return value
    }

    /// Makes the entry for `key` due for a refresh at its next read by a lookup.
    func refreshAtNextRead(_ key: Key) {
        let now = clock.now
        storage.withLock { $0.setRefresh(at: now, forKey: key) }
    }

    /// The fast path's counters so far.
    var frontCounters: FrontReadCounters { storage.withLock { $0.frontCounters } }
}
