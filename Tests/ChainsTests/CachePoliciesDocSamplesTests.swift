import BehaviorKitSync
import BehaviorKitTesting
import Chains
import Testing

/// The samples of `CachePolicies.md`, as written there but for the stand-ins of the shop, the
/// exchange and the images: they must compile and do what their comments say.
struct CachePoliciesDocSamplesTests {
    @Test func invalidateAndStoreWhileAValueLoads() async throws {
        let gate = CancellableGate()
        let memory = MemoryCache<Int, String>()
        let prices = TieredLookup<Int, String>([
            memory,
            LookupSource(name: "shop") { _ in
                try await gate.wait()
                return "9.99"
            },
        ])
        async let loading = prices.value(for: 7)
        #expect(await eventually { prices.statistics.tiers[0].misses == 1 })
        await prices.store("7.49", for: 7)
        gate.open()
        #expect(try await loading == "9.99")
        #expect(memory.value(forKey: 7) == "7.49")
    }

    @Test func refreshInTheBackground() async throws {
        let quote = LockedValue(101.5)
        let clock = ManualClock()
        let memory = MemoryCache<String, Double>(clock: clock)
        let quotes = TieredLookup<String, Double>(
            [memory, LookupSource(name: "exchange") { _ in quote.withLock { $0 } }],
            refresh: .staleWhileRevalidate(maxAge: .seconds(5), staleFor: .seconds(60)), clock: clock)

        #expect(try await quotes.value(for: "ACME") == 101.5)
        quote.withLock { $0 = 102 }
        await clock.advance(by: .seconds(10))
        #expect(try await quotes.value(for: "ACME") == 101.5)
        #expect(await eventually { memory.value(forKey: "ACME") == 102 })
        #expect(try await quotes.value(for: "ACME") == 102)
        #expect(quotes.statistics.refreshes == 1)
        #expect(quotes.statistics.failedRefreshes == 0)
    }

    @Test func weighValuesHearOfRemovalsChangeLimits() {
        let evicted = LockedValue<[String]>([])
        let images = MemoryCache<String, [UInt8]>(
            countLimit: 1_000, costLimit: 64 << 20, weigher: { _, bytes in bytes.count },
            onRemoval: { removal in
                if removal.cause.wasEvicted { evicted.withLock { $0.append("\(removal.key) (\(removal.cause))") } }
            })
        let thumbnail = [UInt8](repeating: 0, count: 10 << 20)
        images.setValue(thumbnail, forKey: "a.png")
        #expect(images.totalCost == thumbnail.count)
        images.setValue(thumbnail, forKey: "b.png")
        images.costLimit = 16 << 20
        #expect(evicted.withLock { $0 } == ["a.png (size)"])
        images.setValue([1], forKey: "c.png")
        images.trim(toCount: images.count / 2)
        #expect(images.keys == ["c.png"])
    }
}
