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
        // The load must have begun (its miss counted) before the store: waited for by yields, then,
        // on a machine too busy to run the load's task within them, by millisecond naps (10 s at most).
        var began = await eventually { prices.statistics.tiers[0].misses == 1 }
        for _ in 0..<10_000 where !began {
            try await Task.sleep(for: .milliseconds(1))
            began = prices.statistics.tiers[0].misses == 1
        }
        #expect(began)
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

    @Test func composeALookupFromItsParts() async throws {
        let api = CountingSource("api", table: [42: "Blade Runner"], failing: true)
        let fallback = LookupSource<Int, String>(name: "fallback") { id in id == 42 ? "Blade Runner (fallback)" : nil }
        let primary = CircuitBreaking(
            LookupSource<Int, String>(name: "primary") { id in try await api.lookup(id) },
            policy: CircuitBreakerPolicy(failureThreshold: 3, coolDown: .seconds(10)))
        let titles = TieredLookup<Int, String>(
            [MemoryCache(countLimit: 500), primary, fallback],
            notFound: NegativeCache(timeToLive: .seconds(30), countLimit: 50_000), circuitBreaker: nil)
        for key in [42, 1, 2] { _ = try? await titles.value(for: key, policy: .reload) }
        #expect(primary.isOpen)
        #expect(try await titles.value(for: 42, policy: .reload) == "Blade Runner (fallback)")
        #expect(titles.statistics.tiers[1].skipped == 1)
        #expect(api.calls == 3)

        let gate = Gate()
        let source = CountingSource("catalog", table: [42: "Blade Runner"], gate: gate)
        let catalog = Coalescing(LookupSource<Int, String>(name: "catalog") { id in try await source.lookup(id) })
        async let first = catalog.lookup(42)
        async let second = catalog.lookup(42)  // the same call: the API is asked once
        #expect(await eventually { catalog.coalesced == 1 })
        gate.open()
        #expect(try await first == "Blade Runner")
        #expect(try await second == "Blade Runner")
        #expect(source.calls == 1)
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
