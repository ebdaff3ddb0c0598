import Chains
import InMemoryLogging
import Logging
import Metrics
import MetricsTestKit
import Testing

/// The sample of the Chains "Observability" article, as written there but for the backend (a
/// test one, bound to the task rather than bootstrapped) and the service.
struct ObservabilityDocSamplesTests {
    struct Movie: Sendable, Equatable { var title: String }

    @Test func overview() async throws {
        let metrics = TestMetrics()
        let movies = withMetricsFactory(metrics) {
            TieredLookup<Int, Movie>(
                [MemoryCache(countLimit: 500), LookupSource(name: "primary") { _ in Movie(title: "Alien") }],
                name: "movies", logger: Logger(label: "movies") { _ in InMemoryLogHandler() })
        }
        let movie = try await movies.value(for: 42)
        #expect(movie.title == "Alien")
        let hits = try metrics.expectCounter("behaviorkit_lookup_hits", [("lookup", "movies"), ("tier", "primary")])
        #expect(hits.totalValue == 1)
    }
}
