import BehaviorKitSync

/// A tier wrapped in a circuit breaker: after repeated failures it is not asked for a cool-down,
/// and each lookup meanwhile throws ``CircuitOpenError`` at once (see ``CircuitBreakerPolicy``).
///
/// ``TieredLookup`` wraps each of its sources in one, with the policy it is given. Wrap a source
/// yourself to give it a policy of its own, and give the lookup `circuitBreaker: nil` (a wrapped
/// source is never wrapped twice: an open inner circuit is not a failure of the outer one).
/// A lookup counts a ``CircuitOpenError`` as a skip, not an error, whoever threw it; its
/// statistics' ``LookupTierStatistics/isCircuitOpen`` and its warning when a circuit opens are
/// those of the breakers it made (read ``isOpen`` here for one of yours).
///
/// ```swift
/// let primary = CircuitBreaking(
///     LookupSource<Int, Movie>(name: "primary") { try await api.movie($0) },
///     policy: CircuitBreakerPolicy(failureThreshold: 3, coolDown: .seconds(10)), clock: clock)
/// let movies = TieredLookup<Int, Movie>([memory, primary, fallback], circuitBreaker: nil)
/// ```
public final class CircuitBreaking<Key: Hashable & Sendable, Value: Sendable>: LookupTier {
    /// The tier asked while the circuit is closed.
    public let source: any LookupTier<Key, Value>

    /// When the circuit opens, and for how long.
    public let policy: CircuitBreakerPolicy

    private let clock: ElapsedClock
    private let circuit: LockedValue<CircuitBreaker>

    /// Wraps `source` in a circuit breaker with `policy`, its cool-downs on `clock`.
    public convenience init(
        _ source: any LookupTier<Key, Value>, policy: CircuitBreakerPolicy = CircuitBreakerPolicy(),
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.init(source, policy: policy, clock: ElapsedClock(clock))
    }

    /// Wraps `source`, its cool-downs read on a lookup's `clock`.
    init(_ source: any LookupTier<Key, Value>, policy: CircuitBreakerPolicy, clock: ElapsedClock) {
        self.source = source
        self.policy = policy
        self.clock = clock
        self.circuit = LockedValue(CircuitBreaker(policy: policy))
    }

    /// The source's name.
    public var name: String { source.name }

    /// Whether the circuit is open now: lookups are not passed to the source.
    public var isOpen: Bool { circuit.withLock { $0.isOpen } }

    /// The source's answer, or ``CircuitOpenError`` while the circuit is open.
    ///
    /// - Throws: ``CircuitOpenError`` while the circuit is open, or what the source threw.
    public func lookup(_ key: Key) async throws -> Value? {
        var opened: Duration?
        return try await lookup(key, at: clock.now, opened: &opened)
    }

    /// ``lookup(_:)`` at `now` on the breaker's clock; `opened` is set to the cool-down when this
    /// lookup's failure opened the circuit.
    func lookup(_ key: Key, at now: Duration, opened: inout Duration?) async throws -> Value? {
        if case .rejected(let retryAfter) = circuit.withLock({ $0.permission(at: now) }) {
            throw CircuitOpenError(tier: name, retryAfter: retryAfter)
        }
        do {
            let value = try await source.lookup(key)
            circuit.withLock { $0.recordSuccess() }
            return value
        } catch {
            if Task.isCancelled || error is CircuitOpenError {
                // Neither an answer nor a failure of this source: a trial may be made again.
                circuit.withLock { $0.recordAbandoned() }
                throw error
            }
            let ended = clock.now
            opened = circuit.withLock { circuit -> Duration? in
                let wasOpen = circuit.isOpen
                circuit.recordFailure(at: ended)
                return !wasOpen && circuit.isOpen ? circuit.policy.coolDown : nil
            }
            throw error
        }
    }
}
