import BehaviorKitTesting
import Chains
import Testing

struct CircuitBreakingTests {
    @Test func opensAfterTheThresholdThrowsCircuitOpenThenLetsOneTrialThrough() async throws {
        let clock = ManualClock()
        let source = CountingSource("primary", table: [1: "one"], failing: true)
        let breaker = CircuitBreaking<Int, String>(
            source, policy: CircuitBreakerPolicy(failureThreshold: 2, coolDown: .seconds(10)), clock: clock)
        #expect(breaker.name == "primary")
        for _ in 0..<2 { await #expect(throws: TestFailure.self) { try await breaker.lookup(1) } }
        #expect(breaker.isOpen)

        await clock.advance(by: .seconds(4))
        let open = await #expect(throws: CircuitOpenError.self) { try await breaker.lookup(1) }
        #expect(open?.retryAfter == .seconds(6))
        #expect(open?.tier == "primary")
        #expect(source.calls == 2)

        source.setFailing(false)
        await clock.advance(by: .seconds(6))
        #expect(try await breaker.lookup(1) == "one")
        #expect(!breaker.isOpen)
        #expect(source.calls == 3)
    }

    @Test func aMissIsAnAnswerNotAFailure() async throws {
        let source = CountingSource("primary", table: [:])
        let breaker = CircuitBreaking<Int, String>(source, policy: CircuitBreakerPolicy(failureThreshold: 1))
        for _ in 0..<3 { #expect(try await breaker.lookup(1) == nil) }
        #expect(!breaker.isOpen)
    }

    @Test func anOpenInnerCircuitIsNotAFailureOfTheOuterOne() async {
        let source = CountingSource("primary", table: [:], failing: true)
        let inner = CircuitBreaking<Int, String>(source, policy: CircuitBreakerPolicy(failureThreshold: 1))
        let outer = CircuitBreaking<Int, String>(inner, policy: CircuitBreakerPolicy(failureThreshold: 2))
        await #expect(throws: TestFailure.self) { try await outer.lookup(1) }
        #expect(inner.isOpen)
        for _ in 0..<3 { await #expect(throws: CircuitOpenError.self) { try await outer.lookup(1) } }
        #expect(!outer.isOpen)
        #expect(source.calls == 1)
    }

    @Test func aSourceWithAPolicyOfItsOwnIsSkippedByTheLookup() async throws {
        let clock = ManualClock()
        let primary = CountingSource("primary", table: [1: "primary"], failing: true)
        let fallback = CountingSource("fallback", table: [1: "fallback"])
        let lookup = TieredLookup<Int, String>(
            [
                CircuitBreaking(
                    primary, policy: CircuitBreakerPolicy(failureThreshold: 1, coolDown: .seconds(10)),
                    clock: clock),
                fallback,
            ], circuitBreaker: nil, clock: clock)
        for _ in 0..<3 { #expect(try await lookup.value(for: 1) == "fallback") }
        #expect(primary.calls == 1)
        let statistics = lookup.statistics.tiers[0]
        #expect(statistics.errors == 1)
        #expect(statistics.skipped == 2)
    }
}
