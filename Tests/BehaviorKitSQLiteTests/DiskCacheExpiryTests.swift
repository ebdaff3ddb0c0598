import BehaviorKitSQLite
import BehaviorKitSync
import BehaviorKitTesting
import Chains
import Foundation
import GRDB
import Testing

struct DiskCacheExpiryTests {
    let folder: TemporaryFolder
    let clock = ManualClock()

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func anEntryExpiresByAgeAndIsRemovedWhenRead() async throws {
        let cache = try DiskCache<Int, Movie>(path: folder.path("aged.sqlite"), timeToLive: .seconds(60), clock: clock)
        try await cache.store(Movie(id: 1, title: "Alien"), for: 1)
        await clock.advance(by: .seconds(30))
        try await cache.store(Movie(id: 2, title: "Heat"), for: 2)
        await clock.advance(by: .seconds(29))
        #expect(try await cache.lookup(1) == Movie(id: 1, title: "Alien"))  // reading does not renew it
        await clock.advance(by: .seconds(1))
        #expect(try await cache.lookup(1) == nil)
        #expect(try await cache.count == 1)
        #expect(try await cache.lookup(2) == Movie(id: 2, title: "Heat"))
    }

    @Test func theAgeIsKeptInTheFileSoAnotherInstanceWithATimeToLiveSeesItExpire() async throws {
        let path = folder.path("shared.sqlite")
        let keepsForEver = try DiskCache<Int, String>(path: path, clock: clock)
        let keepsAMinute = try DiskCache<Int, String>(path: path, timeToLive: .seconds(60), clock: clock)
        try await keepsForEver.store("old", for: 1)
        await clock.advance(by: .seconds(120))
        #expect(try await keepsForEver.lookup(1) == "old")
        #expect(try await keepsAMinute.lookup(1) == nil)  // expired, and removed
        #expect(try await keepsForEver.lookup(1) == nil)
    }

    @Test func removeExpiredRemovesOnlyTheExpired() async throws {
        let cache = try DiskCache<Int, Int>(path: folder.path("sweep.sqlite"), timeToLive: .seconds(10), clock: clock)
        for key in 0..<5 { try await cache.store(key, for: key) }
        await clock.advance(by: .seconds(5))
        for key in 5..<8 { try await cache.store(key, for: key) }
        await clock.advance(by: .seconds(5))
        #expect(try await cache.removeExpired() == 5)
        #expect(Set(try await cache.keys) == [5, 6, 7])
        #expect(try await DiskCache<Int, Int>(path: folder.path("sweep.sqlite")).removeExpired() == 0)
    }

    @Test func aMemoryCacheAboveNoLongerServesTheDiskCopyForEver() async throws {
        let version = LockedCounter()
        let lookup = TieredLookup<Int, String>(
            [
                MemoryCache(timeToLive: .seconds(60), clock: clock),
                try DiskCache<Int, String>(path: folder.path("tiers.sqlite"), timeToLive: .seconds(300), clock: clock),
                LookupSource(name: "source") { _ in "v\(version.next())" },
            ], clock: clock)
        #expect(try await lookup.value(for: 1) == "v1")
        await clock.advance(by: .seconds(60))
        #expect(try await lookup.answer(for: 1).tier == "disk")  // memory expired, disk still fresh
        await clock.advance(by: .seconds(240))
        let answer = try await lookup.answer(for: 1)  // 300 s after it was stored: both expired
        #expect(answer.tier == "source")
        #expect(answer.value == "v2")
    }

    @Test func aFileFromBeforeExpiryIsUpgradedAndItsEntriesCountAsOld() async throws {
        let path = folder.path("v1.sqlite")
        // The first schema, as the first version created it (no `written` column).
        try await DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    CREATE TABLE cacheEntry (key BLOB PRIMARY KEY NOT NULL, value BLOB NOT NULL, size INTEGER NOT NULL,
                        accessed INTEGER NOT NULL) WITHOUT ROWID;
                    CREATE INDEX cacheEntryAccessed ON cacheEntry(accessed);
                    CREATE TABLE cacheTotals (id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL,
                        size INTEGER NOT NULL);
                    INSERT INTO cacheTotals (id, count, size) VALUES (1, 1, 3);
                    INSERT INTO cacheEntry (key, value, size, accessed) VALUES (x'31', x'223122', 3, 1);
                    """)
        }
        #expect(try await DiskCache<Int, String>(path: path).lookup(1) == "1")
        #expect(try await DiskCache<Int, String>(path: path, timeToLive: .seconds(3600)).lookup(1) == nil)
    }
}

final class LockedCounter: Sendable {
    private let value = LockedValue(0)

    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}
