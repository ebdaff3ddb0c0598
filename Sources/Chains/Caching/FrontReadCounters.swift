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
    /// ``value(forKey:now:)``, counted in ``frontCounters`` and timed on `timing` once in
    /// ``FrontReadCounters/sampleInterval`` reads.
    @inlinable
    mutating func frontValue(forKey key: Key, now: () -> Duration, timing: () -> Duration) -> Value? {
        frontCounters.reads &+= 1
        let value: Value?
        if frontCounters.reads % FrontReadCounters.sampleInterval == 1 {
            let start = timing()
            value = self.value(forKey: key, now: now)
            frontCounters.record(timing() - start)
        } else {
            value = self.value(forKey: key, now: now)
        }
        if value == nil { frontCounters.misses &+= 1 }
        return value
    }
}

extension MemoryCache {
    /// The value for `key`, read on a ``TieredLookup``'s fast path and counted for its
    /// statistics.
    @inlinable
    func frontValue(forKey key: Key, timing: ClockReader) -> Value? {
        let clock = self.clock
        return storage.withLock { $0.frontValue(forKey: key, now: { clock.now }, timing: { timing.now }) }
    }

    /// The fast path's counters so far.
    var frontCounters: FrontReadCounters { storage.withLock { $0.frontCounters } }
}
