import BehaviorKitTesting
import Chains
import Testing

/// What Caffeine's users expect of a cache's limits: an expired entry goes before a live one,
/// and a count limit of 0 stores nothing. Each test written before its fix and seen failing.
struct MemoryCacheEvictionOrderTests {
    @Test func anExpiredEntryIsEvictedBeforeALiveOne() async {
        let clock = ManualClock()
        let removals = MemoryCachePolicyTests.Removals()
        let cache = MemoryCache<String, String>(countLimit: 2, clock: clock, onRemoval: removals.record)
        cache.setValue("1", forKey: "short", timeToLive: .seconds(1))
        cache.setValue("2", forKey: "live")
        #expect(cache.value(forKey: "short") == "1")  // short is the most recently used, live the least
        await clock.advance(by: .seconds(2))
        cache.setValue("3", forKey: "new")  // a slot is needed: short, expired, gives it up
        #expect(cache.keys == ["new", "live"])
        #expect(removals.lines == ["short expired"])
        #expect(cache.evictionCount == 0)  // an expiry, not an eviction for size
    }

    @Test func expiredEntriesGoFirstWhenALowerLimitEvicts() async {
        let clock = ManualClock()
        let cache = MemoryCache<Int, Int>(countLimit: 4, clock: clock)
        cache.setValue(1, forKey: 1)
        cache.setValue(2, forKey: 2, timeToLive: .seconds(1))
        cache.setValue(3, forKey: 3)
        cache.setValue(4, forKey: 4, timeToLive: .seconds(1))
        await clock.advance(by: .seconds(1))
        cache.countLimit = 2
        #expect(cache.keys == [3, 1])
    }

    @Test func aCountLimitOfZeroStoresNothing() async throws {
        let removals = MemoryCachePolicyTests.Removals()
        let cache = MemoryCache<String, String>(countLimit: 0, onRemoval: removals.record)
        #expect(cache.countLimit == 0)
        cache.setValue("1", forKey: "a")
        #expect(cache.count == 0)
        #expect(cache.value(forKey: "a") == nil)
        #expect(removals.lines == ["a size"])  // as Caffeine's maximumSize(0): evicted at once
        cache.countLimit = -3  // a negative limit is 0
        #expect(cache.countLimit == 0)
        // In front of a source, every read goes through to it.
        let source = CountingSource("source", table: [1: "one"])
        let lookup = TieredLookup<Int, String>([MemoryCache<Int, String>(countLimit: 0), source])
        #expect(try await lookup.value(for: 1) == "one")
        #expect(try await lookup.value(for: 1) == "one")
        #expect(source.calls == 2)
    }
}
