import BehaviorKitSync
import BehaviorKitTesting
import InMemoryLogging
import InMemoryTracing
import Logging
import Metrics
import MetricsTestKit
import Testing
import Tracing

@testable import Chains

/// The logging, metrics and tracing of tiered lookups (the Observability article's promises).
struct LookupObservabilityTests {
    let clock = ManualClock()
    let metrics = TestMetrics()
    let tracer = InMemoryTracer()
    let logs = InMemoryLogHandler()
    let log = LockedValue<[String]>([])

    var logger: Logger {
        var logger = Logger(label: "test") { _ in logs }
        logger.logLevel = .trace
        return logger
    }

    /// A lookup over a memory cache, a source that fails and a source that has 1 and 2, made
    /// where `metrics` and `tracer` are the current backends.
    func movies(
        failing: CountingSource, logger: Logger? = nil, breaker: CircuitBreakerPolicy? = nil
    ) -> TieredLookup<Int, String> {
        withMetricsFactory(metrics) {
            withTracer(tracer) {
                TieredLookup<Int, String>(
                    [
                        MemoryCache<Int, String>(countLimit: 100), failing,
                        CountingSource("primary", table: [1: "Alien", 2: "Heat"]),
                    ],
                    name: "movies", circuitBreaker: breaker, clock: clock, logger: logger)
            }
        }
    }

    func count(_ label: String, tier: String) throws -> Int64 {
        try metrics.expectCounter(label, [("lookup", "movies"), ("tier", tier)]).totalValue
    }

    @Test func withoutABackendOrALoggerALookupHoldsNoInstrument() {
        let lookup = TieredLookup<Int, String>([MemoryCache<Int, String>()], clock: clock)
        #expect(lookup.instruments == nil, "the fast path then costs one nil test")
    }

    @Test func hitsMissesErrorsAndLatencyAreCountedPerTier() async throws {
        let movies = movies(failing: CountingSource("flaky", table: [:], failing: true))
        #expect(try await movies.value(for: 1) == "Alien")  // memory miss, flaky error, primary hit
        #expect(try await movies.value(for: 1) == "Alien")  // memory hit (the fast path)
        await #expect(throws: LookupError<Int>.self) { try await movies.value(for: 3) }
        #expect(try count("behaviorkit_lookup_hits", tier: "memory") == 1)
        #expect(try count("behaviorkit_lookup_misses", tier: "memory") == 2)
        #expect(try count("behaviorkit_lookup_errors", tier: "flaky") == 2)
        #expect(try count("behaviorkit_lookup_hits", tier: "primary") == 1)
        #expect(try count("behaviorkit_lookup_misses", tier: "primary") == 1)
        #expect(try metrics.expectCounter("behaviorkit_lookup_unavailable", [("lookup", "movies")]).totalValue == 1)
        let primary = try metrics.expectTimer(
            "behaviorkit_lookup_duration_seconds", [("lookup", "movies"), ("tier", "primary")])
        #expect(primary.values.count == 2, "every read below the front is timed")
        #expect(movies.statistics.tiers.map(\.hits) == [1, 0, 1], "the statistics count as before")
    }

    @Test func oneMemoryReadInSixtyFourIsTimed() async throws {
        let movies = movies(failing: CountingSource("flaky", table: [:]))
        _ = try await movies.value(for: 2)
        for _ in 0..<129 { _ = try await movies.value(for: 2) }
        #expect(try count("behaviorkit_lookup_hits", tier: "memory") == 129)
        let memory = try metrics.expectTimer(
            "behaviorkit_lookup_duration_seconds", [("lookup", "movies"), ("tier", "memory")])
        #expect(memory.values.count == 3, "reads 1, 65 and 129 of 130")
    }

    @Test func eachLookupIsASpanNamingTheTierThatAnswered() async throws {
        let movies = movies(failing: CountingSource("flaky", table: [:]))
        _ = try await movies.value(for: 2)
        _ = try await movies.value(for: 2)
        await #expect(throws: LookupError<Int>.self) { try await movies.value(for: 3) }
        let spans = tracer.finishedSpans.filter { $0.operationName == "behaviorkit.lookup" }
        #expect(
            spans.map { $0.attributes.get("behaviorkit.lookup.tier") } == [.string("primary"), .string("memory"), nil])
        #expect(spans.map { $0.attributes.get("behaviorkit.lookup.tier_index") } == [.int64(2), .int64(0), nil])
        #expect(
            spans.map { $0.attributes.get("behaviorkit.outcome") }
                == [.string("found"), .string("found"), .string("not_found")])
        #expect(spans.allSatisfy { $0.attributes.get("behaviorkit.lookup.name") == .string("movies") })
        #expect(spans.first?.attributes.get("behaviorkit.lookup.key") == .string("2"))
        #expect(spans.allSatisfy { $0.errors.isEmpty }, "not found is an answer, not an error")
    }

    @Test func aCircuitThatOpensIsAWarningAndEachFailureADebugLine() async throws {
        let flaky = CountingSource("flaky", table: [:], failing: true)
        let movies = movies(
            failing: flaky, logger: logger, breaker: CircuitBreakerPolicy(failureThreshold: 2, coolDown: .seconds(10)))
        _ = try await movies.value(for: 1)
        #expect(!logs.entries.contains { $0.level == .warning }, "one failure does not open the circuit")
        _ = try await movies.value(for: 2)
        let failures = logs.entries.filter { $0.message.description == "tier failed; asking the next" }
        #expect(failures.count == 2 && failures.allSatisfy { $0.level == .debug && $0.metadata["tier"] == "flaky" })
        let opened = try #require(logs.entries.first { $0.level == .warning })
        #expect(opened.message.description == "circuit opened: the source is skipped for its cool-down")
        #expect(opened.metadata["tier"] == "flaky" && opened.metadata["lookup"] == "movies")
        #expect(opened.metadata["cool_down"] == "10.0 seconds")
        let logged = logs.entries.count
        _ = try await movies.value(for: 2)
        #expect(logs.entries.count == logged, "nothing is logged on the fast path (a memory hit)")
    }
}
