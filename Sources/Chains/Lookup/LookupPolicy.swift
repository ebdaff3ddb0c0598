/// How one lookup uses the tiers, as Nuke's per-request options and Apollo's fetch policies.
///
/// ```swift
/// try await movies.value(for: 42)                          // .default: caches, then sources
/// try await movies.value(for: 42, policy: .reload)         // skip cached values, refresh them
/// try await movies.value(for: 42, policy: .cacheOnly)      // never call a source
/// ```
public struct LookupPolicy: Hashable, Sendable {
    /// Whether the caches (``LookupStore`` tiers) are read.
    public var readsCaches: Bool
    /// Whether a value found below a cache is written back into it.
    public var writesBack: Bool
    /// Whether sources (tiers that are not stores) are asked.
    public var usesSources: Bool

    /// Creates a policy; by default everything is allowed.
    public init(readsCaches: Bool = true, writesBack: Bool = true, usesSources: Bool = true) {
        self.readsCaches = readsCaches
        self.writesBack = writesBack
        self.usesSources = usesSources
    }

    /// Caches first, then sources; found values are written back (Apollo's
    /// `returnCacheDataElseFetch`).
    public static let `default` = LookupPolicy()

    /// Skips cached values and asks the sources, writing what they answer back into the caches
    /// (Nuke's `reloadIgnoringCachedData`, Apollo's `fetchIgnoringCacheData`).
    public static let reload = LookupPolicy(readsCaches: false)

    /// Asks the sources only and leaves the caches untouched (Apollo's
    /// `fetchIgnoringCacheCompletely`).
    public static let bypassCaches = LookupPolicy(readsCaches: false, writesBack: false)

    /// Answers from the caches or not at all (Nuke's `returnCacheDataDontLoad`, Apollo's
    /// `returnCacheDataDontFetch`).
    public static let cacheOnly = LookupPolicy(usesSources: false)
}
