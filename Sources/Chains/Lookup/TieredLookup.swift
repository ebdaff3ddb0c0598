public import BehaviorKitSync
public import Logging

/// A chain of responsibility for lookups: asks its tiers in order (caches, then sources) and
/// answers with the first value found.
///
/// - A value found below a cache is **written back** into the caches above it, nearest first.
/// - A tier that throws is counted and **skipped** (fail-over); the lookup goes on below it.
/// - The end of the chain is a typed ``LookupError`` with code `.notFound`.
/// - Concurrent misses for one key collapse into **one** walk of the tiers below the first
///   (single-flight), on a task of its own: it survives the cancellation of the lookup that
///   started it, and stops only when every lookup waiting for it has gone. A cancelled lookup
///   returns at once with `.cancelled`.
/// - Loads are versioned: an ``invalidate(_:)`` or ``store(_:for:)`` made while a value is
///   being loaded wins over the load's write-back, and later lookups do not join that load.
/// - "Not found" can be remembered for a while in a ``NegativeCache`` (negative caching); "every
///   source failed" is told apart (`.unavailable`, a 503 rather than a 404) and never remembered.
/// - A ``RefreshPolicy`` reloads values in the background before they expire (refresh-ahead)
///   or while serving them stale (stale-while-revalidate).
/// - Each source is wrapped in a ``CircuitBreaking``: after repeated failures it is skipped for
///   a cool-down on the injected clock.
/// - Each tier keeps ``LookupTierStatistics``: hits, misses, errors and latency.
///
/// - With a `logger`, a swift-metrics backend or a tracer (bootstrapped before the lookup is
///   made), it logs, counts per tier and traces each lookup (<doc:Observability>).
///
/// The lookup assembles parts that can be used alone too: ``NegativeCache``, ``CircuitBreaking``
/// (a source with a policy of its own) and ``Coalescing`` (one tier's concurrent lookups shared).
///
/// When the first tier gives a ``LookupTier/memoryCache`` (a ``MemoryCache`` gives itself), a
/// hit there takes a fast path: one lock, no dynamic call, one read in 64 timed. (Its counts
/// live in the cache, so a cache that is the first tier of two lookups shows the reads of both.)
///
/// ```swift
/// let movies = TieredLookup<Int, Movie>([
///     MemoryCache(countLimit: 500), diskCache,
///     LookupSource(name: "primary") { try await primary.movie($0) },
///     LookupSource(name: "fallback") { try await fallback.movie($0) },
/// ])
/// let movie = try await movies.value(for: 42)
/// ```
public final class TieredLookup<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    struct Tier: Sendable {
        let tier: any LookupTier<Key, Value>
        let store: (any LookupStore<Key, Value>)?
        /// The source wrapped in the lookup's circuit breaker, or `nil`.
        let breaker: CircuitBreaking<Key, Value>?
        @usableFromInline let name: String
    }

    @usableFromInline
    let tiers: [Tier]

    /// The first tier's ``LookupTier/memoryCache``: read on the fast path without a dynamic call.
    @usableFromInline
    let front: MemoryCache<Key, Value>?

    @usableFromInline
    let counters: LockedValue<LookupCounters>

    @usableFromInline
    let clock: ElapsedClock

    /// The logger, metrics and tracer, or `nil` when there is none of them.
    @usableFromInline
    let instruments: LookupInstruments?

    let flights = SingleFlight<Key, Value>()
    let gates = KeyedGate<Key>()
    let negativeCache: NegativeCache<Key>?
    let refreshAhead: RefreshAhead<Key, Value>?

    /// When values in the front ``MemoryCache`` are reloaded in the background, or `nil`.
    public let refresh: RefreshPolicy?

    /// The tier's name when it is used as a tier of another lookup.
    public let name: String

    /// Creates a lookup over `tiers`, asked in order, that remembers "not found" in `notFound`.
    ///
    /// ```swift
    /// let movies = TieredLookup<Int, Movie>(
    ///     [memory, catalog], notFound: NegativeCache(timeToLive: .seconds(30), countLimit: 50_000))
    /// ```
    ///
    /// - Parameters:
    ///   - tiers: caches (``LookupStore``s) and sources, from the fastest to the last resort.
    ///   - name: this lookup's name when it is itself a tier of another.
    ///   - notFound: where "not found" is remembered (when no tier failed), or `nil` to ask the
    ///     tiers every time.
    ///   - circuitBreaker: the policy of the ``CircuitBreaking`` each source is wrapped in, or
    ///     `nil` for none.
    ///   - refresh: when values in the first tier's ``LookupTier/memoryCache`` are reloaded in
    ///     the background; `nil` for never.
    ///   - clock: the clock for latency, cool-downs and remembered answers.
    ///   - logger: where to log tier failures (`debug`), circuits that open (`warning`) and
    ///     each lookup below the first tier (`trace`); `nil` to log nothing.
    public init(
        _ tiers: [any LookupTier<Key, Value>], name: String = "lookup", notFound: NegativeCache<Key>?,
        circuitBreaker: CircuitBreakerPolicy? = CircuitBreakerPolicy(), refresh: RefreshPolicy? = nil,
        clock: some Clock<Duration> = ContinuousClock(), logger: Logger? = nil
    ) {
        let reader = ElapsedClock(clock)
        self.instruments = LookupInstruments.make(name: name, tierNames: tiers.map(\.name), logger: logger)
        self.refresh = refresh
        self.tiers = tiers.map { tier in
            let store = tier as? any LookupStore<Key, Value>
            let breaker = store == nil ? circuitBreaker.map { CircuitBreaking(tier, policy: $0, clock: reader) } : nil
            return Tier(tier: tier, store: store, breaker: breaker, name: tier.name)
        }
        let front = tiers.first?.memoryCache
        self.front = front
        self.refreshAhead = front.flatMap { front in refresh.map { RefreshAhead(policy: $0, front: front) } }
        self.name = name
        self.clock = reader
        self.counters = LockedValue(LookupCounters(tierNames: tiers.map(\.name)))
        self.negativeCache = notFound
    }

    /// Creates a lookup over `tiers`, asked in order.
    ///
    /// - Parameters:
    ///   - tiers: caches (``LookupStore``s) and sources, from the fastest to the last resort.
    ///   - name: this lookup's name when it is itself a tier of another.
    ///   - rememberNotFoundFor: how long "not found" is remembered (when no tier failed), in a
    ///     ``NegativeCache`` of ``NegativeCache/defaultCountLimit`` keys, or `nil` to ask the
    ///     tiers every time.
    ///   - circuitBreaker: the policy of the ``CircuitBreaking`` each source is wrapped in, or
    ///     `nil` for none.
    ///   - refresh: when values in the first tier's ``LookupTier/memoryCache`` are reloaded in
    ///     the background; `nil` for never.
    ///   - clock: the clock for latency, cool-downs and remembered answers.
    ///   - logger: where to log tier failures (`debug`), circuits that open (`warning`) and
    ///     each lookup below the first tier (`trace`); `nil` to log nothing.
    public convenience init(
        _ tiers: [any LookupTier<Key, Value>], name: String = "lookup", rememberNotFoundFor: Duration? = nil,
        circuitBreaker: CircuitBreakerPolicy? = CircuitBreakerPolicy(), refresh: RefreshPolicy? = nil,
        clock: some Clock<Duration> = ContinuousClock(), logger: Logger? = nil
    ) {
        self.init(
            tiers, name: name, notFound: rememberNotFoundFor.map { NegativeCache(timeToLive: $0, clock: clock) },
            circuitBreaker: circuitBreaker, refresh: refresh, clock: clock, logger: logger)
    }

    /// The value for `key`, from the first tier that has it.
    ///
    /// - Throws: ``LookupError`` `.notFound` at the end of the chain, `.unavailable` when a
    ///   source failed or was skipped on the way, `.cancelled` when the task is cancelled.
    @inlinable
    @inline(__always)
    public func value(for key: Key, policy: LookupPolicy = .default) async throws(LookupError<Key>) -> Value {
        try await answer(for: key, policy: policy).value
    }

    /// The value for `key` and the tier that answered it.
    ///
    /// ```swift
    /// let answer = try await movies.answer(for: 42)
    /// print("\(answer.value.title) from \(answer.tier)")   // "… from disk"
    /// ```
    @inlinable
    @inline(__always)
    public func answer(
        for key: Key, policy: LookupPolicy = .default
    ) async throws(LookupError<Key>) -> LookupAnswer<Value> {
        if let instruments, instruments.isTraced {
            return try await answerTraced(for: key, policy: policy, instruments)
        }
        guard let front, policy.readsCaches else {
            return try await lookUpBelowFront(key, policy: policy, from: 0)
        }
        var refreshDue = false
        let value =
            if let instruments { measuredFrontValue(front, key, instruments, refreshDue: &refreshDue) } else {
                front.frontValue(forKey: key, timing: clock, refreshDue: &refreshDue)
            }
        if let value {
            if refreshDue { refreshInBackground(key) }
            return LookupAnswer(value: value, tier: tiers[0].name, tierIndex: 0)
        }
        return try await lookUpBelowFront(key, policy: policy, from: 1)
    }

    /// A snapshot of every tier's statistics.
    public var statistics: LookupStatistics {
        let openCircuits = tiers.map { $0.breaker?.isOpen ?? false }
        var statistics = counters.withLock { $0.statistics }
        if let front {
            let fast = front.frontCounters
            statistics.tiers[0].hits = fast.reads - fast.misses
            statistics.tiers[0].misses = fast.misses
            statistics.tiers[0].timedReads = fast.timedReads
            statistics.tiers[0].totalLatency = fast.totalLatency
            statistics.tiers[0].maxLatency = fast.maxLatency
        }
        for index in statistics.tiers.indices { statistics.tiers[index].isCircuitOpen = openCircuits[index] }
        return statistics
    }
}
