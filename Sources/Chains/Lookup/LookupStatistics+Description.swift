import BehaviorKitSync

extension LookupTierStatistics: CustomStringConvertible {
    /// One line: "memory: 90 hits, 10 misses, 0 errors, 0 skipped, 10 writes, 0 write errors,
    /// mean 1.2 µs, max 3 µs", then ", circuit open" when it is, and the last write error.
    ///
    /// ```swift
    /// for tier in movies.statistics.tiers { print(tier) }
    /// // memory: 90 hits, 10 misses, 0 errors, 0 skipped, 10 writes, 0 write errors, mean 45 ns, max 2.1 µs
    /// // catalog: 10 hits, 0 misses, 1 errors, 0 skipped, 0 writes, 0 write errors, mean 20 ms, max 25 ms
    /// ```
    public var description: String {
        var text =
            "\(name): \(hits) hits, \(misses) misses, \(errors) errors, \(skipped) skipped, "
            + "\(writes) writes, \(writeErrors) write errors, "
        if let meanLatency {
            text += "mean \(meanLatency.shortDescription), max \(maxLatency.shortDescription)"
        } else {
            text += "no timed reads"
        }
        if isCircuitOpen { text += ", circuit open" }
        if let lastWriteError { text += "; last write error: \(lastWriteError)" }
        return text
    }
}

extension LookupStatistics: CustomStringConvertible {
    /// A line per tier (see ``LookupTierStatistics``), then the lookups that reached no tier and
    /// the background reloads.
    ///
    /// ```swift
    /// print(movies.statistics)
    /// // memory: 90 hits, 10 misses, 0 errors, 0 skipped, 10 writes, 0 write errors, mean 45 ns, max 2.1 µs
    /// // catalog: 10 hits, 0 misses, 0 errors, 0 skipped, 0 writes, 0 write errors, mean 20 ms, max 25 ms
    /// // lookups: 3 coalesced, 0 not found, 0 not found remembered, 0 unavailable; refreshes: 0 started, 0 failed
    /// ```
    public var description: String {
        let lookups =
            "lookups: \(coalesced) coalesced, \(notFound) not found, \(rememberedNotFound) not found remembered, "
            + "\(unavailable) unavailable; refreshes: \(refreshes) started, \(failedRefreshes) failed"
        return (tiers.map(\.description) + [lookups]).joined(separator: "\n")
    }
}
