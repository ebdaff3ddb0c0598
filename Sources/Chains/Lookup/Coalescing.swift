import BehaviorKitSync

/// A tier whose concurrent lookups of one key share one call (single-flight, as Nuke coalesces
/// the loads of one image): the first asks the wrapped tier, on a task of its own, and the
/// lookups made while it runs wait for its answer or its error.
///
/// The call goes on while any lookup waits for it, and is cancelled when the last one leaves; a
/// cancelled lookup throws `CancellationError` at once. A ``TieredLookup`` already shares its
/// walks of the tiers below its first; wrap a tier that others call directly, or one shared by
/// several lookups.
///
/// ```swift
/// let catalog = Coalescing(LookupSource<Int, Movie>(name: "catalog") { try await api.movie($0) })
/// async let first = catalog.lookup(42)
/// async let second = catalog.lookup(42)   // the same call: the API is asked once
/// ```
public final class Coalescing<Key: Hashable & Sendable, Value: Sendable>: LookupTier {
    /// The tier asked once per key at a time.
    public let source: any LookupTier<Key, Value>

    private let flights = SingleFlight<Key, Value>()
    private let joins = LockedValue(0)

    /// Wraps `source`.
    public init(_ source: any LookupTier<Key, Value>) {
        self.source = source
    }

    /// The source's name.
    public var name: String { source.name }

    /// The lookups that joined a call already under way instead of making one.
    public var coalesced: Int { joins.withLock { $0 } }

    /// The source's answer for `key`, shared with every lookup of `key` made while it is asked.
    ///
    /// - Throws: what the source threw, or `CancellationError` when the lookup was cancelled.
    public func lookup(_ key: Key) async throws -> Value? {
        let result = await flights.result(for: key, policy: .default, joined: countJoin) { [source] _ in
            do {
                guard let value = try await source.lookup(key) else { return .notFound([], sourcesFailed: false) }
                return .found(value, tierIndex: 0)
            } catch {
                return .notFound([LookupTierFailure(tier: source.name, error: error)], sourcesFailed: true)
            }
        }
        switch result {
        case .found(let value, _): return value
        case .notFound(let failures, _):
            if let failure = failures.first { throw failure.error }
            return nil
        case .cancelled: throw CancellationError()
        }
    }

    private func countJoin() {
        joins.withLock { $0 += 1 }
    }
}
