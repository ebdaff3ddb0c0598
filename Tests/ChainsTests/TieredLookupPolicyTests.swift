import BehaviorKitSync
import BehaviorKitTesting
import Chains
import Testing

struct TieredLookupPolicyTests {
    @Test func reloadSkipsCachedValuesAndRefreshesThem() async throws {
        let memory = MemoryCache<Int, String>()
        memory.setValue("stale", forKey: 1)
        let source = CountingSource("source", table: [1: "fresh"])
        let lookup = TieredLookup<Int, String>([memory, source])
        #expect(try await lookup.value(for: 1, policy: .reload) == "fresh")
        #expect(memory.value(forKey: 1) == "fresh")
    }

    @Test func bypassCachesLeavesThemUntouched() async throws {
        let memory = MemoryCache<Int, String>()
        memory.setValue("cached", forKey: 1)
        let lookup = TieredLookup<Int, String>([memory, CountingSource("source", table: [1: "fresh", 2: "two"])])
        #expect(try await lookup.value(for: 1, policy: .bypassCaches) == "fresh")
        #expect(try await lookup.value(for: 2, policy: .bypassCaches) == "two")
        #expect(memory.value(forKey: 1) == "cached")
        #expect(memory.value(forKey: 2) == nil)
    }

    @Test func cacheOnlyNeverCallsASource() async throws {
        let memory = MemoryCache<Int, String>()
        memory.setValue("cached", forKey: 1)
        let source = CountingSource("source", table: [2: "two"])
        let lookup = TieredLookup<Int, String>([memory, source], rememberNotFoundFor: .seconds(60))
        #expect(try await lookup.value(for: 1, policy: .cacheOnly) == "cached")
        await #expect(throws: LookupError<Int>.self) { try await lookup.value(for: 2, policy: .cacheOnly) }
        #expect(source.calls == 0)
        // A cache-only miss is not authoritative: it is not remembered.
        #expect(try await lookup.value(for: 2) == "two")
    }

    @Test func noWriteBack() async throws {
        let memory = MemoryCache<Int, String>()
        let lookup = TieredLookup<Int, String>([memory, CountingSource("source", table: [1: "one"])])
        #expect(try await lookup.value(for: 1, policy: LookupPolicy(writesBack: false)) == "one")
        #expect(memory.count == 0)
    }

    @Test func notFoundIsRememberedForAWhile() async throws {
        let clock = ManualClock()
        let source = CountingSource("source", table: [:])
        let lookup = TieredLookup<Int, String>(
            [MemoryCache(), source], rememberNotFoundFor: .seconds(30), clock: clock)
        for _ in 0..<3 {
            await #expect(throws: LookupError<Int>.self) { try await lookup.value(for: 1) }
        }
        #expect(source.calls == 1)
        #expect(lookup.statistics.rememberedNotFound == 2)
        await clock.advance(by: .seconds(30))
        await #expect(throws: LookupError<Int>.self) { try await lookup.value(for: 1) }
        #expect(source.calls == 2)
        // A stored value replaces the remembered answer.
        await lookup.store("now here", for: 1)
        #expect(try await lookup.value(for: 1) == "now here")
    }

    @Test func notFoundIsNotRememberedWhenASourceFailed() async {
        let source = CountingSource("source", table: [:], failing: true)
        let lookup = TieredLookup<Int, String>([source], rememberNotFoundFor: .seconds(30), circuitBreaker: nil)
        for _ in 0..<3 {
            await #expect(throws: LookupError<Int>.self) { try await lookup.value(for: 1) }
        }
        #expect(source.calls == 3)
    }

    @Test func theCircuitOpensAfterRepeatedFailuresAndClosesAfterATrial() async throws {
        let clock = ManualClock()
        let primary = CountingSource("primary", table: [1: "primary"], failing: true)
        let fallback = CountingSource("fallback", table: [1: "fallback"])
        let lookup = TieredLookup<Int, String>(
            [primary, fallback], circuitBreaker: CircuitBreakerPolicy(failureThreshold: 2, coolDown: .seconds(10)),
            clock: clock)
        for _ in 0..<2 { #expect(try await lookup.value(for: 1) == "fallback") }
        #expect(primary.calls == 2)
        #expect(lookup.statistics.tiers[0].isCircuitOpen)

        // Open: skipped, not called, for the cool-down.
        #expect(try await lookup.value(for: 1) == "fallback")
        await clock.advance(by: .seconds(9))
        #expect(try await lookup.value(for: 1) == "fallback")
        #expect(primary.calls == 2)
        #expect(lookup.statistics.tiers[0].skipped == 2)

        // Cool-down over: one trial; it fails, so the circuit opens again at once.
        await clock.advance(by: .seconds(1))
        #expect(try await lookup.value(for: 1) == "fallback")
        #expect(primary.calls == 3)
        #expect(try await lookup.value(for: 1) == "fallback")
        #expect(primary.calls == 3)

        // Next trial succeeds: closed again.
        primary.setFailing(false)
        await clock.advance(by: .seconds(10))
        #expect(try await lookup.value(for: 1) == "primary")
        #expect(try await lookup.value(for: 1) == "primary")
        #expect(primary.calls == 5)
        #expect(!lookup.statistics.tiers[0].isCircuitOpen)
    }

    @Test func anOpenCircuitIsNamedInTheUnavailable() async {
        let clock = ManualClock()
        let primary = CountingSource("primary", table: [:], failing: true)
        let lookup = TieredLookup<Int, String>(
            [primary], circuitBreaker: CircuitBreakerPolicy(failureThreshold: 1, coolDown: .seconds(10)), clock: clock)
        await #expect(throws: LookupError<Int>.self) { try await lookup.value(for: 1) }
        await clock.advance(by: .seconds(4))
        do {
            _ = try await lookup.value(for: 1)
        } catch {
            #expect(
                error.description
                    == "unavailable: 1 (primary failed: circuit open after repeated failures, retried in 6 s)")
        }
    }
}
