import Chains
import InMemoryLogging
import InMemoryTracing
import Logging
import Metrics
import MetricsTestKit
import Testing
import Tracing

/// Lookups from many tasks with every instrument on: the counts add up (and, under
/// ThreadSanitizer, nothing races).
struct LookupObservabilityStressTests {
    @Test func concurrentLookupsAreEachCountedOnceStress() async throws {
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        var logger = Logger(label: "stress") { _ in InMemoryLogHandler() }
        logger.logLevel = .trace
        let lookup = withMetricsFactory(metrics) {
            withTracer(tracer) {
                TieredLookup<Int, Int>(
                    [MemoryCache<Int, Int>(countLimit: 50), LookupSource(name: "source") { $0 < 100 ? $0 : nil }],
                    name: "stress", logger: logger)
            }
        }
        let tasks = 8
        let perTask = 500
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in 0..<perTask { _ = try? await lookup.value(for: (task * 31 + index * 7) % 120) }
                }
            }
        }
        let dimensions = [("lookup", "stress"), ("tier", "memory")]
        let memoryReads =
            try metrics.expectCounter("behaviorkit_lookup_hits", dimensions).totalValue
            + metrics.expectCounter("behaviorkit_lookup_misses", dimensions).totalValue
        #expect(memoryReads == Int64(tasks * perTask), "every lookup read the memory tier once")
        #expect(tracer.finishedSpans.count == tasks * perTask, "a span per lookup")
        let statistics = lookup.statistics
        #expect(
            statistics.tiers[0].hits == Int(try metrics.expectCounter("behaviorkit_lookup_hits", dimensions).totalValue)
        )
    }
}
