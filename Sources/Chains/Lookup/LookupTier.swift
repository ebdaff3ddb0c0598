/// One tier of a ``TieredLookup``: something that may have the value for a key.
///
/// A tier answers with the value, with `nil` for "I do not have it" (the lookup asks the next
/// tier), or throws when it failed (the lookup counts the error and fails over to the next
/// tier). Sources such as web services are plain tiers; caches are ``LookupStore``s, into
/// which a value found below them is written back.
///
/// ```swift
/// struct MovieService: LookupTier {
///     var name: String { "primary" }
///     func lookup(_ id: Int) async throws -> Movie? { try await api.movie(id) }
/// }
/// ```
public protocol LookupTier<Key, Value>: Sendable {
    /// What values are looked up by.
    associatedtype Key: Hashable & Sendable
    /// What is looked up.
    associatedtype Value: Sendable

    /// The tier's name in statistics and errors, such as `memory` or `primary`.
    var name: String { get }

    /// The value for `key`, or `nil` when this tier does not have it.
    ///
    /// - Throws: when the tier could not answer; the lookup fails over to the next tier.
    func lookup(_ key: Key) async throws -> Value?

    /// The ``MemoryCache`` that holds exactly what this tier answers, or `nil` (the default).
    ///
    /// A ``TieredLookup`` whose first tier gives one reads it on its fast path: a hit takes one
    /// lock, and no suspension or dynamic call. A ``MemoryCache`` gives itself; a tier that wraps
    /// one and adds nothing to its reads may give it too.
    var memoryCache: MemoryCache<Key, Value>? { get }
}

extension LookupTier {
    /// `nil`: a lookup whose first tier this is asks it by ``lookup(_:)``.
    public var memoryCache: MemoryCache<Key, Value>? { nil }
}

/// A tier that also keeps values: a cache. ``TieredLookup`` writes a value found below a store
/// back into it.
///
/// Every store should pass `CacheTierConformance` from `BehaviorKitTesting`.
///
/// ```swift
/// let memory = MemoryCache<Int, Movie>(countLimit: 500)
/// try await memory.store(movie, for: 42)
/// try await memory.lookup(42)   // movie
/// ```
public protocol LookupStore<Key, Value>: LookupTier {
    /// Keeps `value` for `key`, replacing any value it had.
    func store(_ value: Value, for key: Key) async throws

    /// Forgets the value for `key`; nothing happens when there is none.
    func remove(_ key: Key) async throws
}

/// A source tier made of a closure.
///
/// ```swift
/// let primary = LookupSource<Int, Movie>(name: "primary") { id in try await api.movie(id) }
/// ```
public struct LookupSource<Key: Hashable & Sendable, Value: Sendable>: LookupTier {
    /// The tier's name in statistics and errors.
    public let name: String

    private let body: @Sendable (Key) async throws -> Value?

    /// Creates a tier named `name` that answers with `body`.
    public init(name: String, _ body: @escaping @Sendable (Key) async throws -> Value?) {
        self.name = name
        self.body = body
    }

    /// Runs the closure for `key`.
    public func lookup(_ key: Key) async throws -> Value? {
        try await body(key)
    }
}
