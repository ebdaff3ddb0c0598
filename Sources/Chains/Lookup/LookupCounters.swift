/// The statistics a ``TieredLookup`` keeps under its lock.
///
/// The fast path (a hit in a front ``MemoryCache``) takes the lock once: it counts the read
/// before it is made, and its hits are the reads that were neither misses nor errors. Reading
/// the clock costs about as much as the hit itself, so the fast path times one read in
/// ``frontSampleInterval``; every other read is timed.
@usableFromInline
struct LookupCounters: Sendable {
    @usableFromInline
    static var frontSampleInterval: Int { 64 }

    @usableFromInline
    var statistics: LookupStatistics

    @usableFromInline
    var frontReads = 0

    let hasFront: Bool

    init(tierNames: [String], hasFront: Bool) {
        self.statistics = LookupStatistics(tierNames: tierNames)
        self.hasFront = hasFront
    }

    /// Counts a fast-path read; returns whether to time it.
    @inlinable
    mutating func beginFrontRead() -> Bool {
        frontReads &+= 1
        return frontReads % Self.frontSampleInterval == 1
    }

    @inlinable
    mutating func endFrontRead(hit: Bool, latency: Duration?) {
        if !hit { statistics.tiers[0].misses += 1 }
        if let latency { record(latency, tier: 0) }
    }

    @inlinable
    mutating func record(_ latency: Duration, tier: Int) {
        statistics.tiers[tier].timedReads += 1
        statistics.tiers[tier].totalLatency += latency
        if latency > statistics.tiers[tier].maxLatency { statistics.tiers[tier].maxLatency = latency }
    }

    var snapshot: LookupStatistics {
        var snapshot = statistics
        if hasFront {
            snapshot.tiers[0].hits = frontReads - snapshot.tiers[0].misses - snapshot.tiers[0].errors
        }
        return snapshot
    }
}
