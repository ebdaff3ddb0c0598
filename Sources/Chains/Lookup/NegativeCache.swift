/// Remembers, for a while, the keys that no tier had: a ``TieredLookup`` answers them "not
/// found" without asking its tiers again (negative caching).
///
/// A lookup remembers only an authoritative "not found" (every source asked, none failed), and
/// forgets a key when a value is stored for it or it is invalidated. The most recently
/// remembered keys are kept, at most ``countLimit`` of them.
///
/// ```swift
/// let movies = TieredLookup<Int, Movie>(
///     [memory, catalog], notFound: NegativeCache(timeToLive: .seconds(30), countLimit: 50_000))
/// ```
public final class NegativeCache<Key: Hashable & Sendable>: Sendable {
    /// The most keys remembered when none is given.
    public static var defaultCountLimit: Int { 10_000 }

    /// How long a key is remembered.
    public let timeToLive: Duration

    private let keys: MemoryCache<Key, Bool>

    /// Creates an empty negative cache.
    ///
    /// - Parameters:
    ///   - timeToLive: how long a key is remembered.
    ///   - countLimit: the most keys remembered; past it the least recently remembered or read
    ///     goes. With 0 nothing is remembered; a negative limit is 0.
    ///   - clock: the clock `timeToLive` is measured on.
    public init(
        timeToLive: Duration, countLimit: Int = NegativeCache.defaultCountLimit,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.timeToLive = timeToLive
        self.keys = MemoryCache(name: "not found", countLimit: countLimit, timeToLive: timeToLive, clock: clock)
    }

    /// The most keys remembered.
    public var countLimit: Int { keys.countLimit }

    /// How many keys are remembered, expired ones included until they are read or removed.
    public var count: Int { keys.count }

    /// Whether `key` is remembered as not found, and not expired.
    public func contains(_ key: Key) -> Bool {
        keys.value(forKey: key) != nil
    }

    /// Remembers `key` as not found for ``timeToLive``.
    public func remember(_ key: Key) {
        keys.setValue(true, forKey: key)
    }

    /// Forgets `key`: the next lookup asks the tiers.
    public func forget(_ key: Key) {
        keys.removeValue(forKey: key)
    }
}
