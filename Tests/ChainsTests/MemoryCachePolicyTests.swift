import BehaviorKitSync
import BehaviorKitTesting
import Chains
import Testing

/// Weigher, removal listener, limits changed at run time, and trim.
struct MemoryCachePolicyTests {
    /// A listener that records `key cause` for each removal.
    final class Removals: Sendable {
        private let log = LockedValue<[String]>([])
        var lines: [String] { log.withLock { $0 } }
        func record(_ removal: CacheRemoval<String, String>) {
            log.withLock { $0.append("\(removal.key) \(removal.cause)") }
        }
    }

    @Test func theWeigherCostsValuesStoredThroughTheLookupStoreProtocol() async throws {
        let cache = MemoryCache<String, String>(countLimit: 100, costLimit: 10, weigher: { _, value in value.count })
        try await cache.store("abcd", for: "a")
        try await cache.store("efgh", for: "b")
        #expect(cache.totalCost == 8)
        try await cache.store("ijkl", for: "c")  // 12 > 10: a goes
        #expect(cache.keys == ["c", "b"])
        #expect(cache.totalCost == 8)
        cache.setValue("free", forKey: "d", cost: 0)  // an explicit cost wins over the weigher
        #expect(cache.totalCost == 8)
    }

    @Test func valuesWrittenBackByALookupAreWeighed() async throws {
        let memory = MemoryCache<Int, String>(countLimit: 100, costLimit: 10, weigher: { _, value in value.count })
        let lookup = TieredLookup<Int, String>([
            memory, CountingSource("source", table: [1: "xxxx", 2: "yyyy", 3: "zzzz"]),
        ])
        for key in 1...3 { _ = try await lookup.value(for: key) }
        #expect(memory.keys == [3, 2])
        #expect(memory.totalCost == 8)
    }

    @Test func theListenerHearsEveryRemovalWithItsCause() async {
        let removals = Removals()
        let clock = ManualClock()
        let cache = MemoryCache<String, String>(
            countLimit: 2, costLimit: 10, timeToLive: .seconds(10), clock: clock, onRemoval: removals.record)
        cache.setValue("1", forKey: "a")
        cache.setValue("2", forKey: "a")  // replaced
        cache.setValue("1", forKey: "b")
        cache.setValue("1", forKey: "c")  // a, the least recently used, goes
        cache.removeValue(forKey: "b")  // explicit
        cache.setValue("huge", forKey: "d", cost: 11)  // refused
        await clock.advance(by: .seconds(10))
        #expect(cache.value(forKey: "c") == nil)  // expired on read
        cache.setValue("1", forKey: "e")
        cache.removeAll()
        #expect(removals.lines == ["a replaced", "a size", "b explicit", "d size", "c expired", "e explicit"])
        #expect(RemovalCause.size.wasEvicted && RemovalCause.expired.wasEvicted)
        #expect(!RemovalCause.explicit.wasEvicted && !RemovalCause.replaced.wasEvicted)
    }

    @Test func theListenerMayUseTheCache() {
        let cache = LockedValue<MemoryCache<String, String>?>(nil)
        let made = MemoryCache<String, String>(
            countLimit: 1,
            onRemoval: { removal in
                // Runs after the cache's lock is released: reading the cache here does not deadlock.
                _ = cache.withLock { $0 }?.value(forKey: removal.key)
            })
        cache.withLock { $0 = made }
        made.setValue("1", forKey: "a")
        made.setValue("2", forKey: "b")
        #expect(made.keys == ["b"])
    }

    @Test func limitsChangeAtRunTimeAndEvictAtOnce() async {
        let removals = Removals()
        let clock = ManualClock()
        let cache = MemoryCache<String, String>(countLimit: 10, clock: clock, onRemoval: removals.record)
        for key in ["a", "b", "c", "d"] { cache.setValue(key, forKey: key, cost: 3) }
        cache.countLimit = 3
        #expect(cache.countLimit == 3)
        #expect(cache.keys == ["d", "c", "b"])
        cache.costLimit = 6
        #expect(cache.keys == ["d", "c"])
        #expect(cache.evictionCount == 2)
        #expect(removals.lines == ["a size", "b size"])
        cache.countLimit = 1
        #expect(cache.countLimit == 1)
        #expect(cache.keys == ["d"])
        cache.costLimit = nil
        cache.timeToLive = .seconds(5)
        cache.setValue("e", forKey: "e")
        await clock.advance(by: .seconds(5))
        #expect(cache.value(forKey: "e") == nil)
    }

    @Test func trimEvictsDownToACountOrACostAndKeepsTheLimits() {
        let cache = MemoryCache<Int, Int>(countLimit: 100)
        for key in 0..<10 { cache.setValue(key, forKey: key, cost: 2) }
        cache.trim(toCount: 6)
        #expect(cache.keys == [9, 8, 7, 6, 5, 4])
        cache.trim(toCost: 5)
        #expect(cache.keys == [9, 8])
        #expect(cache.countLimit == 100)
        #expect(cache.evictionCount == 8)
        cache.trim(toCount: 0)
        #expect(cache.count == 0)
    }

    @Test func aNegativeCostCountsAsZero() {
        let cache = MemoryCache<Int, Int>(countLimit: 10, costLimit: 5)
        cache.setValue(1, forKey: 1, cost: -100)
        cache.setValue(2, forKey: 2, cost: 5)
        #expect(cache.totalCost == 5)
        #expect(cache.count == 2)
    }
}
