/// The statistics a ``TieredLookup`` keeps under its lock (the fast path's are kept by its front
/// ``MemoryCache``: see ``FrontReadCounters``).
@usableFromInline
struct LookupCounters: Sendable {
    @usableFromInline
    var statistics: LookupStatistics

    init(tierNames: [String]) {
        self.statistics = LookupStatistics(tierNames: tierNames)
    }

    mutating func record(_ latency: Duration, tier: Int) {
        statistics.tiers[tier].timedReads += 1
        statistics.tiers[tier].totalLatency += latency
        if latency > statistics.tiers[tier].maxLatency { statistics.tiers[tier].maxLatency = latency }
    }
}
