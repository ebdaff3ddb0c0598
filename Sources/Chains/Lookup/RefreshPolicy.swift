/// When a ``TieredLookup`` reloads a value in the background: the lookup answers at once with
/// the value its front ``MemoryCache`` has, and the next ones get the reloaded value.
///
/// Both policies mark each value the lookup writes into its front cache with a refresh time:
/// the first lookup that reads the value after that time starts one reload of the key (with
/// ``LookupPolicy/reload``: the sources are asked and the caches refreshed), and answers with
/// the value it read. A reload whose source has no value any more removes the key; one that
/// fails leaves the value, due for a reload again at its next read.
///
/// ```swift
/// // Caffeine's refreshAfterWrite: reload after a minute, expire per the cache's time-to-live.
/// let movies = TieredLookup<Int, Movie>([memory, catalog], refresh: .refreshAhead(after: .seconds(60)))
/// // RFC 5861: fresh for a minute, then served stale for up to five while revalidating.
/// let prices = TieredLookup<Int, Price>([memory, shop], refresh: .staleWhileRevalidate(maxAge: .seconds(60), staleFor: .seconds(300)))
/// ```
public struct RefreshPolicy: Hashable, Sendable {
    /// How long after it is written a value is due for a reload.
    public var refreshAfter: Duration
    /// How long after it is written a value expires, or `nil` for the front cache's own
    /// time-to-live.
    public var expiresAfter: Duration?

    /// Creates a policy: reload after `refreshAfter`, expire after `expiresAfter` (or per the
    /// front cache).
    public init(refreshAfter: Duration, expiresAfter: Duration? = nil) {
        self.refreshAfter = refreshAfter
        self.expiresAfter = expiresAfter
    }

    /// Refresh-ahead (Caffeine's `refreshAfterWrite`): a value read more than `after` after it
    /// was written is reloaded in the background; it still expires per the front cache's
    /// time-to-live, so make that longer than `after`.
    public static func refreshAhead(after: Duration) -> RefreshPolicy {
        RefreshPolicy(refreshAfter: after)
    }

    /// Stale-while-revalidate (RFC 5861): a value is fresh for `maxAge`; for `staleFor` after
    /// that it is still answered, and reloaded in the background; past both it is gone and a
    /// lookup waits for the sources.
    public static func staleWhileRevalidate(maxAge: Duration, staleFor: Duration) -> RefreshPolicy {
        RefreshPolicy(refreshAfter: maxAge, expiresAfter: maxAge + staleFor)
    }
}
