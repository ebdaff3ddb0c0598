/// What one tier of a ``TieredLookup`` did: hits, misses, errors and latency.
///
/// ```swift
/// for tier in movies.statistics.tiers {
///     print(tier.name, tier.hits, tier.misses, tier.errors, tier.meanLatency ?? .zero)
/// }
/// ```
public struct LookupTierStatistics: Hashable, Sendable {
    /// The tier's name.
    public let name: String
    /// Reads that answered with a value.
    public var hits = 0
    /// Reads that answered "not here".
    public var misses = 0
    /// Reads that threw.
    public var errors = 0
    /// Lookups that skipped this source because its circuit breaker was open.
    public var skipped = 0
    /// Values written back into this store.
    public var writes = 0
    /// Write-backs (and invalidations) that threw; the lookup still answered.
    public var writeErrors = 0
    /// What the last write-back that threw said, or `nil`.
    public var lastWriteError: String?
    /// How many reads were timed (every read, except a sample of the fast path's memory hits).
    public var timedReads = 0
    /// The total time of the timed reads, on the lookup's clock.
    public var totalLatency: Duration = .zero
    /// The longest timed read.
    public var maxLatency: Duration = .zero
    /// Whether this source's circuit breaker is open now.
    public var isCircuitOpen = false

    /// Creates empty statistics for the tier `name`.
    public init(name: String) {
        self.name = name
    }

    /// The reads: hits, misses and errors.
    public var reads: Int { hits + misses + errors }

    /// The mean time of a timed read, or `nil` before the first.
    public var meanLatency: Duration? {
        timedReads == 0 ? nil : totalLatency / timedReads
    }
}

/// What a ``TieredLookup`` did: each tier's statistics, and the lookups that never reached one.
public struct LookupStatistics: Hashable, Sendable {
    /// Each tier's statistics, in chain order.
    public var tiers: [LookupTierStatistics]
    /// Lookups that joined another lookup of the same key already under way (single-flight).
    public var coalesced = 0
    /// Lookups answered "not found" from the negative cache.
    public var rememberedNotFound = 0
    /// Lookups that reached the end of the chain, every source having answered.
    public var notFound = 0
    /// Lookups that reached the end of the chain with a source failed or skipped on the way.
    public var unavailable = 0
    /// Background reloads started (see ``RefreshPolicy``).
    public var refreshes = 0
    /// Background reloads that failed or were cancelled.
    public var failedRefreshes = 0

    /// Creates empty statistics for tiers named `names`.
    public init(tierNames names: [String]) {
        self.tiers = names.map(LookupTierStatistics.init(name:))
    }
}

/// Encoded under the properties' names: each tier's statistics (see ``LookupTierStatistics``)
/// and the lookup's counters; decoded from that form.
///
/// ```swift
/// try JSONEncoder().encode(movies.statistics)
/// // {"tiers":[{"name":"memory",…},{"name":"catalog",…}],"coalesced":3,"notFound":2,…}
/// ```
extension LookupStatistics: Codable {}
