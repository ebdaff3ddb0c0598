import BehaviorKitSync
import Foundation
import GRDB

extension DiskCache {
    /// Removes every entry.
    public func removeAll() async throws(DiskCacheError) {
        try await perform { db in try db.execute(sql: "DELETE FROM cacheEntry") }
    }

    /// Removes every expired entry now, rather than when it is next read or evicted.
    ///
    /// ```swift
    /// try await disk.removeExpired()   // at launch, say
    /// ```
    ///
    /// - Returns: how many entries were removed.
    @discardableResult
    public func removeExpired() async throws(DiskCacheError) -> Int {
        guard let timeToLive else { return 0 }
        let expiredBefore = clock.milliseconds(before: timeToLive)
        return try await perform { db in
            try db.execute(sql: "DELETE FROM cacheEntry WHERE written <= ?", arguments: [expiredBefore])
            return db.changesCount
        }
    }

    /// The number of entries, expired ones included until they are read or removed.
    public var count: Int {
        get async throws(DiskCacheError) {
            try await perform { db in try Int.fetchOne(db, sql: "SELECT count FROM cacheTotals") ?? 0 }
        }
    }

    /// The bytes of stored values.
    public var totalSize: Int {
        get async throws(DiskCacheError) {
            try await perform { db in try Int.fetchOne(db, sql: "SELECT size FROM cacheTotals") ?? 0 }
        }
    }

    /// The keys, most recently used first.
    public var keys: [Key] {
        get async throws(DiskCacheError) {
            let data = try await perform { db in
                try Data.fetchAll(db, sql: "SELECT key FROM cacheEntry ORDER BY accessed DESC")
            }
            return data.compactMap { try? JSONDecoder().decode(Key.self, from: $0) }
        }
    }
}

/// Wall-clock time in milliseconds since 1970, moving with an injected clock from the moment it
/// is made: ages survive a restart, and a manual clock drives them in tests.
struct WallClockReader: Sendable {
    private let originMilliseconds: Int64
    private let clock: ElapsedClock

    init<C: Clock<Duration>>(_ clock: C) {
        originMilliseconds = Int64((Date().timeIntervalSince1970 * 1_000).rounded())
        self.clock = ElapsedClock(clock)
    }

    var milliseconds: Int64 { originMilliseconds &+ clock.now.milliseconds }

    /// The time `duration` ago: entries written at or before it are expired.
    func milliseconds(before duration: Duration) -> Int64 {
        let ago = duration.milliseconds
        let (time, overflow) = milliseconds.subtractingReportingOverflow(ago)
        return overflow ? (ago < 0 ? .max : .min) : time
    }
}

extension Duration {
    /// The duration in whole milliseconds, saturating at the bounds of `Int64`.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000_000_000).partialValue
    }
}
