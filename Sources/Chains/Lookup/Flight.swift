/// What one flight found (a walk of a lookup's tiers, or one tier's answer), shared with the
/// loads that joined it.
enum FlightResult<Value: Sendable>: Sendable {
    case found(Value, tierIndex: Int)
    /// The end of the chain; `sourcesFailed` when a source failed or was skipped on the way.
    case notFound([LookupTierFailure], sourcesFailed: Bool)
    case cancelled
}

/// One run of a ``SingleFlight``'s work for a key, on a task of its own, and the loads waiting
/// for it. Every field is read and written under the single-flight's lock.
final class Flight<Value: Sendable>: @unchecked Sendable {
    let policy: LookupPolicy
    /// A refresh started by a hit: it runs to the end with nobody waiting.
    let isBackground: Bool

    var waiters: [Int: CheckedContinuation<FlightResult<Value>, Never>] = [:]
    var task: Task<Void, Never>?
    /// Invalidated or overwritten while under way: its value is not written back.
    var isStale = false
    /// No longer joined by new lookups: stale, abandoned, or done.
    var isDetached = false

    init(policy: LookupPolicy, isBackground: Bool) {
        self.policy = policy
        self.isBackground = isBackground
    }
}

/// The flights under way, by key. Guarded by the single-flight's lock.
struct FlightTable<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    var byKey: [Key: [Flight<Value>]] = [:]
    var nextWaiter = 0

    /// The flight of `key` under `policy` that a lookup may join.
    func joinable(_ key: Key, policy: LookupPolicy) -> Flight<Value>? {
        byKey[key]?.first { $0.policy == policy && !$0.isDetached }
    }

    /// Takes `flight` out of the table: no lookup joins it from now on.
    mutating func detach(_ flight: Flight<Value>, key: Key) {
        flight.isDetached = true
        guard var flights = byKey[key] else { return }
        flights.removeAll { $0 === flight }
        byKey[key] = flights.isEmpty ? nil : flights
    }

    /// Marks every flight of `key` stale and detaches it: a value it finds is not written back,
    /// and lookups from now on start a walk of their own.
    mutating func invalidate(_ key: Key) {
        for flight in byKey[key] ?? [] {
            flight.isStale = true
            flight.isDetached = true
        }
        byKey[key] = nil
    }
}

/// A load's place among a flight's waiters, so that its cancellation can find it. Guarded by
/// the single-flight's lock.
final class FlightTicket<Value: Sendable>: @unchecked Sendable {
    var id = 0
    var flight: Flight<Value>?
    /// Cancelled before it joined a flight.
    var isCancelled = false
}
