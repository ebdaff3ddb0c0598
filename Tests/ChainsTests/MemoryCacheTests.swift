import BehaviorKitTesting
import Chains
import Testing

struct MemoryCacheTests {
    @Test func evictsTheLeastRecentlyUsed() {
        let cache = MemoryCache<String, Int>(countLimit: 3)
        cache.setValue(1, forKey: "a")
        cache.setValue(2, forKey: "b")
        cache.setValue(3, forKey: "c")
        #expect(cache.keys == ["c", "b", "a"])
        #expect(cache.value(forKey: "a") == 1)  // a is now the most recent
        #expect(cache.keys == ["a", "c", "b"])
        cache.setValue(4, forKey: "d")  // evicts b
        #expect(cache.keys == ["d", "a", "c"])
        #expect(cache.value(forKey: "b") == nil)
        cache.setValue(30, forKey: "c")  // a replacement refreshes c
        cache.setValue(5, forKey: "e")  // evicts a
        #expect(cache.keys == ["e", "c", "d"])
        #expect(cache.value(forKey: "c") == 30)
        #expect(cache.evictionCount == 2)
        #expect(cache.count == 3)
    }

    @Test func missesDoNotChangeTheOrder() {
        let cache = MemoryCache<Int, Int>(countLimit: 2)
        cache.setValue(1, forKey: 1)
        cache.setValue(2, forKey: 2)
        #expect(cache.value(forKey: 3) == nil)
        #expect(cache.keys == [2, 1])
    }

    @Test func costLimitEvictsUntilTheTotalFits() {
        let cache = MemoryCache<String, String>(countLimit: 100, costLimit: 10)
        cache.setValue("x", forKey: "a", cost: 4)
        cache.setValue("x", forKey: "b", cost: 4)
        #expect(cache.totalCost == 8)
        cache.setValue("x", forKey: "c", cost: 5)  // 13 > 10: a goes
        #expect(cache.keys == ["c", "b"])
        #expect(cache.totalCost == 9)
        cache.setValue("y", forKey: "b", cost: 2)  // a replacement changes the cost
        #expect(cache.totalCost == 7)
    }

    @Test func anEntryThatCannotFitAloneIsRefusedAndEvictsNothing() {
        let cache = MemoryCache<String, String>(countLimit: 100, costLimit: 10)
        cache.setValue("x", forKey: "a", cost: 4)
        cache.setValue("x", forKey: "b", cost: 4)
        cache.setValue("x", forKey: "huge", cost: 11)
        #expect(cache.keys == ["b", "a"])
        #expect(cache.totalCost == 8)
        #expect(cache.value(forKey: "huge") == nil)
        #expect(cache.evictionCount == 0)
        // Replacing a kept value with one too large forgets the old value: it is not current.
        cache.setValue("too large", forKey: "a", cost: 11)
        #expect(cache.value(forKey: "a") == nil)
        #expect(cache.keys == ["b"])
        #expect(cache.totalCost == 4)
    }

    @Test func timeToLiveIsCheckedOnEveryRead() async {
        let clock = ManualClock()
        let cache = MemoryCache<String, Int>(timeToLive: .seconds(10), clock: clock)
        cache.setValue(1, forKey: "a")
        await clock.advance(by: .seconds(9))
        #expect(cache.value(forKey: "a") == 1)
        cache.setValue(2, forKey: "b", timeToLive: .seconds(30))  // until 39 s
        await clock.advance(by: .seconds(1))
        #expect(cache.value(forKey: "a") == nil)  // expired at exactly 10 s, though just read
        #expect(cache.count == 1)
        await clock.advance(by: .seconds(28))
        #expect(cache.value(forKey: "b") == 2)
        await clock.advance(by: .seconds(1))
        #expect(cache.value(forKey: "b") == nil)
    }

    @Test func entriesWithoutTimeToLiveNeverExpire() async {
        let clock = ManualClock()
        let cache = MemoryCache<String, Int>(clock: clock)
        cache.setValue(1, forKey: "a")
        cache.setValue(2, forKey: "b", timeToLive: .seconds(1))
        await clock.advance(by: .seconds(3600))
        #expect(cache.value(forKey: "a") == 1)
        #expect(cache.count == 2)
        cache.removeExpired()
        #expect(cache.keys == ["a"])
    }

    @Test func removeAndRemoveAll() {
        let cache = MemoryCache<Int, String>(countLimit: 10)
        for key in 0..<5 { cache.setValue("\(key)", forKey: key, cost: 1) }
        #expect(cache.removeValue(forKey: 2) == "2")
        #expect(cache.removeValue(forKey: 2) == nil)
        #expect(cache.keys == [4, 3, 1, 0])
        #expect(cache.totalCost == 4)
        cache.setValue("5", forKey: 5)  // reuses the freed slot
        #expect(cache.keys == [5, 4, 3, 1, 0])
        cache.removeAll()
        #expect(cache.count == 0)
        #expect(cache.value(forKey: 5) == nil)
    }

    @Test func isALookupStore() async throws {
        let cache = MemoryCache<Int, String>()
        try await cache.store("x", for: 1)
        #expect(try await cache.lookup(1) == "x")
        try await cache.remove(1)
        #expect(try await cache.lookup(1) == nil)
    }

    @Test func manyTasksStress() async {
        let cache = MemoryCache<Int, Int>(countLimit: 64, costLimit: 200)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for step in 0..<2_000 {
                        let key = (task * 31 + step * 7) % 100
                        if let value = cache.value(forKey: key), value != key * 2 { Issue.record("\(key) -> \(value)") }
                        if step % 3 == 0 { cache.setValue(key * 2, forKey: key, cost: step % 5) }
                        if step % 11 == 0 { cache.removeValue(forKey: key) }
                    }
                }
            }
        }
        #expect(cache.count <= 64)
        #expect(cache.totalCost <= 200)
        #expect(cache.keys.count == cache.count)
    }
}

struct MemoryCacheConformanceTests {
    @Test func memoryCachePassesTheCacheTierConformanceSuite() async throws {
        try await CacheTierConformance(keys: Array(0..<20), values: ["a", "b", "c"]) {
            MemoryCache<Int, String>(countLimit: 100)
        }.run()
    }

    @Test func theSuiteCatchesABrokenStore() async {
        do {
            try await CacheTierConformance(keys: [1, 2, 3], values: ["a", "b"]) { ForgetfulStore() }.run()
            Issue.record("a store that never keeps anything passed")
        } catch {
            #expect(error.failures.map(\.check).contains("a stored value is returned"))
            #expect(error.description.contains("for key 1, expected a, got nil (a miss)"))
            #expect(!error.failures.map(\.check).contains("an empty store misses"))
        }
    }
}

/// A store that forgets everything: the conformance suite must reject it.
private struct ForgetfulStore: LookupStore {
    var name: String { "forgetful" }
    func lookup(_ key: Int) async throws -> String? { nil }
    func store(_ value: String, for key: Int) async throws {}
    func remove(_ key: Int) async throws {}
}
