import BehaviorKitSync
public import Chains

/// A simulated web endpoint: a source tier that takes `delay` on its clock and fails at a
/// seeded rate.
public struct MovieEndpoint<C: Clock<Duration>>: LookupTier {
    /// The endpoint's name: `primary` or `fallback`.
    public let name: String
    /// How long each call takes, on `clock`.
    public let delay: Duration
    /// The share of calls that fail, from 0 to 1.
    public let failureRate: Double

    private let catalog: MovieCatalog
    private let clock: C
    private let random: LockedValue<SplitMix64>

    /// Creates an endpoint named `name` over `catalog`, whose failures follow `seed`.
    public init(
        name: String, catalog: MovieCatalog, delay: Duration, failureRate: Double, seed: UInt64, clock: C
    ) {
        self.name = name
        self.catalog = catalog
        self.delay = delay
        self.failureRate = failureRate
        self.clock = clock
        self.random = LockedValue(SplitMix64(seed: seed))
    }

    /// Waits `delay`, then fails at the seeded rate or answers from the catalog.
    public func lookup(_ id: Int) async throws -> MovieItem? {
        try await clock.sleep(for: delay)
        if random.withLock({ $0.nextUnit() }) < failureRate {
            throw MovieEndpointError(endpoint: name, movieID: id)
        }
        return catalog.movie(id)
    }
}

/// A simulated endpoint's failure.
public struct MovieEndpointError: Error, CustomStringConvertible, Sendable {
    /// The endpoint that failed.
    public let endpoint: String
    /// The movie asked for.
    public let movieID: Int

    public var description: String { "503 Service Unavailable" }
}
