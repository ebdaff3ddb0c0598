/// When a source's circuit breaker opens, and for how long.
///
/// After `failureThreshold` consecutive failures the source is skipped for `coolDown` (on the
/// lookup's clock); then one lookup may try it again (half-open): a success closes the
/// circuit, a failure opens it for another cool-down. A miss (`nil`) is an answer, not a
/// failure.
///
/// ```swift
/// let movies = TieredLookup(tiers, circuitBreaker: CircuitBreakerPolicy(failureThreshold: 3, coolDown: .seconds(10)))
/// ```
public struct CircuitBreakerPolicy: Hashable, Sendable {
    /// How many consecutive failures open the circuit.
    public var failureThreshold: Int
    /// How long an open circuit skips its source.
    public var coolDown: Duration

    /// Creates a policy: `failureThreshold` consecutive failures open the circuit for `coolDown`.
    public init(failureThreshold: Int = 5, coolDown: Duration = .seconds(30)) {
        self.failureThreshold = max(1, failureThreshold)
        self.coolDown = coolDown
    }
}

/// One source's circuit: a pure value, driven by ``CircuitBreaking`` under its lock.
struct CircuitBreaker: Sendable {
    enum Permission: Equatable {
        case allowed
        case rejected(retryAfter: Duration)
    }

    let policy: CircuitBreakerPolicy
    private(set) var consecutiveFailures = 0
    /// When the open circuit lets a trial through; `nil` while closed.
    private(set) var openUntil: Duration?
    private var trialInFlight = false

    init(policy: CircuitBreakerPolicy) {
        self.policy = policy
    }

    var isOpen: Bool { openUntil != nil }

    /// Whether the source may be asked now; past the cool-down, lets one trial through.
    mutating func permission(at now: Duration) -> Permission {
        guard let openUntil else { return .allowed }
        if now < openUntil { return .rejected(retryAfter: openUntil - now) }
        if trialInFlight { return .rejected(retryAfter: .zero) }
        trialInFlight = true
        return .allowed
    }

    /// The source answered (with a value or a miss): the circuit closes.
    mutating func recordSuccess() {
        consecutiveFailures = 0
        openUntil = nil
        trialInFlight = false
    }

    /// The source failed: a failed trial, or the threshold reached, opens the circuit.
    mutating func recordFailure(at now: Duration) {
        consecutiveFailures += 1
        if trialInFlight || consecutiveFailures >= policy.failureThreshold {
            openUntil = now + policy.coolDown
        }
        trialInFlight = false
    }

    /// The asked source neither answered nor failed (its lookup was cancelled): a trial may
    /// be made again.
    mutating func recordAbandoned() {
        trialInFlight = false
    }
}
