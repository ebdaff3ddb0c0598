import Logging
import Metrics
import Synchronization
import Tracing

/// What a ``TieredLookup`` reports through: its logger, and the metrics factory and tracer
/// current when it was made. A lookup holds one only when one of the three is there, so that
/// without a backend a lookup costs one `nil` test.
///
/// The metric objects are made once, at the lookup's creation: one set per tier, one for the
/// lookup (see the Observability article for the names).
@usableFromInline
final class LookupInstruments: Sendable {
    /// The metrics of one tier.
    struct TierMetrics: Sendable {
        let hits: Counter
        let misses: Counter
        let errors: Counter
        let skipped: Counter
        let writeErrors: Counter
        let duration: Metrics.Timer
    }

    /// The metrics of the lookup as a whole.
    struct LookupMetrics: Sendable {
        let tiers: [TierMetrics]
        let notFound: Counter
        let rememberedNotFound: Counter
        let unavailable: Counter
        let coalesced: Counter
        let refreshes: Counter
        let failedRefreshes: Counter
    }

    let name: String
    let tierNames: [String]
    let logger: Logger?
    let metrics: LookupMetrics?
    let tracer: (any Tracer)?
    /// Whether there is a tracer: then each lookup is a span.
    @usableFromInline let isTraced: Bool
    /// Whether there is a metrics backend: then the fast path's reads are counted.
    @usableFromInline let measuresFront: Bool
    /// The first tier's metrics, read by the fast path without copying ``TierMetrics``.
    private let frontHits: Counter?
    private let frontMisses: Counter?
    private let frontDuration: Metrics.Timer?
    /// Counts the fast path's reads, so that one in ``sampleInterval`` is timed.
    private let frontReads = Atomic<Int>(0)

    /// How often a memory hit on the fast path is timed.
    static var sampleInterval: Int { 64 }

    private init(
        name: String, tierNames: [String], logger: Logger?, metrics: LookupMetrics?, tracer: (any Tracer)?
    ) {
        self.name = name
        self.tierNames = tierNames
        self.logger = logger
        self.metrics = metrics
        self.tracer = tracer
        self.isTraced = tracer != nil
        self.measuresFront = metrics != nil
        self.frontHits = metrics?.tiers.first?.hits
        self.frontMisses = metrics?.tiers.first?.misses
        self.frontDuration = metrics?.tiers.first?.duration
    }

    /// A read of the front ``MemoryCache`` on the fast path, with its time when it was sampled.
    @usableFromInline
    func frontRead(hit: Bool, latency: Duration?) {
        (hit ? frontHits : frontMisses)?.increment()
        if let latency { frontDuration?.record(duration: latency) }
    }

    /// The instruments of lookup `name` over tiers `tierNames`, or `nil` when there is no logger,
    /// no metrics backend and no tracer.
    static func make(name: String, tierNames: [String], logger: Logger?) -> LookupInstruments? {
        let factory = MetricsSystem.factory
        let metrics = factory is NOOPMetricsHandler ? nil : Self.metrics(name, tierNames, factory)
        let tracer = InstrumentationSystem.tracer
        let traced: (any Tracer)? = tracer is NoOpTracer ? nil : tracer
        guard logger != nil || metrics != nil || traced != nil else { return nil }
        var logger = logger
        logger?[metadataKey: "lookup"] = "\(name)"
        return LookupInstruments(name: name, tierNames: tierNames, logger: logger, metrics: metrics, tracer: traced)
    }

    private static func metrics(_ name: String, _ tierNames: [String], _ factory: any MetricsFactory) -> LookupMetrics {
        func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
            Counter(label: label, dimensions: dimensions, factory: factory)
        }
        let tiers = tierNames.map { tier in
            let dimensions = [("lookup", name), ("tier", tier)]
            return TierMetrics(
                hits: counter(LookupMetric.hits, dimensions), misses: counter(LookupMetric.misses, dimensions),
                errors: counter(LookupMetric.errors, dimensions), skipped: counter(LookupMetric.skipped, dimensions),
                writeErrors: counter(LookupMetric.writeErrors, dimensions),
                duration: Metrics.Timer(label: LookupMetric.duration, dimensions: dimensions, factory: factory))
        }
        let lookup = [("lookup", name)]
        return LookupMetrics(
            tiers: tiers, notFound: counter(LookupMetric.notFound, lookup),
            rememberedNotFound: counter(LookupMetric.rememberedNotFound, lookup),
            unavailable: counter(LookupMetric.unavailable, lookup), coalesced: counter(LookupMetric.coalesced, lookup),
            refreshes: counter(LookupMetric.refreshes, lookup),
            failedRefreshes: counter(LookupMetric.failedRefreshes, lookup))
    }

    /// Whether this read of the fast path is one to time (one in ``sampleInterval``).
    @usableFromInline
    func samplesFrontRead() -> Bool {
        frontReads.wrappingAdd(1, ordering: .relaxed).oldValue % Self.sampleInterval == 0
    }
}

/// The metric labels of lookups (see the Observability article).
enum LookupMetric {
    static let hits = "behaviorkit_lookup_hits"
    static let misses = "behaviorkit_lookup_misses"
    static let errors = "behaviorkit_lookup_errors"
    static let skipped = "behaviorkit_lookup_skipped"
    static let writeErrors = "behaviorkit_lookup_write_errors"
    static let duration = "behaviorkit_lookup_duration_seconds"
    static let notFound = "behaviorkit_lookup_not_found"
    static let rememberedNotFound = "behaviorkit_lookup_remembered_not_found"
    static let unavailable = "behaviorkit_lookup_unavailable"
    static let coalesced = "behaviorkit_lookup_coalesced"
    static let refreshes = "behaviorkit_lookup_refreshes"
    static let failedRefreshes = "behaviorkit_lookup_failed_refreshes"
}
