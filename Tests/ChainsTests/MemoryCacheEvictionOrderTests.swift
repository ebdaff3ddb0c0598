import BehaviorKitTesting
import Chains
import Testing

/// What Caffeine's users expect of a cache's limits: an expired entry goes before a live one.
/// Each test written before its fix and seen failing.
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

}
