/// Why an entry left a ``MemoryCache``, as Caffeine's `RemovalCause`.
///
/// ```swift
/// let cache = MemoryCache<Int, Movie>(
///     countLimit: 500,
///     onRemoval: { removal in
///         if removal.cause.wasEvicted { print("evicted \(removal.key): \(removal.cause)") }
///     })
/// ```
public enum RemovalCause: Hashable, Sendable, CustomStringConvertible {
    /// Removed by a call: ``MemoryCache/removeValue(forKey:)``, ``MemoryCache/removeAll()``, or
    /// a lookup's `invalidate`.
    case explicit
    /// Its value was replaced by a newer one for the same key.
    case replaced
    /// Its time-to-live ran out.
    case expired
    /// Evicted to respect the count or cost limit (or refused, being larger than the cost limit
    /// on its own).
    case size

    /// Whether the cache removed the entry by itself (expiry or a limit), rather than because of
    /// a call.
    public var wasEvicted: Bool { self == .expired || self == .size }

    /// The cause as Caffeine names it: "explicit", "replaced", "expired", "size".
    public var description: String {
        switch self {
        case .explicit: "explicit"
        case .replaced: "replaced"
        case .expired: "expired"
        case .size: "size"
        }
    }
}

/// An entry that left a ``MemoryCache``, and why: what its removal listener receives.
public struct CacheRemoval<Key: Sendable, Value: Sendable>: Sendable {
    /// The entry's key.
    public let key: Key
    /// The value removed.
    public let value: Value
    /// Why it was removed.
    public let cause: RemovalCause

    /// Creates a removal of `value` for `key`.
    public init(key: Key, value: Value, cause: RemovalCause) {
        self.key = key
        self.value = value
        self.cause = cause
    }
}
