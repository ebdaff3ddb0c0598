import BehaviorKitTesting
import Commands
import InMemoryLogging
import InMemoryTracing
import Logging
import Metrics
import MetricsTestKit
import Testing
import Tracing

/// The samples of the "Observability" article, as written there but for the backends (test
/// ones, bound to the task rather than bootstrapped) and the journal (in memory).
struct ObservabilityDocSamplesTests {
    struct Reserve: JournaledCommand {
        static let journalKind = "shop.reserve"
        let order: Int
        var name: String { "reserve order \(order)" }
        func execute() async throws {}
        func undo() async throws {}
    }

    var registry: CommandRegistry {
        var registry = CommandRegistry()
        registry.register(Reserve.self)
        return registry
    }

    var steps: [DurableStep] {
        get throws { [try DurableStep(Reserve(order: 42)), try DurableStep(Reserve(order: 43))] }
    }

    @Test func overview() async throws {
        let metrics = TestMetrics()
        let logs = InMemoryLogHandler()
        let logger = Logger(label: "orders") { _ in logs }
        let journal = InMemoryCommandJournal()
        _ = try await journal.begin(
            try registry.entry(Reserve(order: 41), key: "left"), lease: JournalLease(owner: "gone", duration: .zero))
        let worker = withMetricsFactory(metrics) {
            JournaledInvoker(journal: journal, registry: registry, logger: logger)
        }
        print(try await worker.recover())  // logs each record it settles, and how
        try await worker.transaction("order", key: "order-42", steps: steps).run()
        let completed = try metrics.expectCounter(
            "behaviorkit_transactions", [("transaction", "order"), ("outcome", "completed")])
        #expect(completed.totalValue == 1)
        let settled = try #require(logs.entries.first { $0.message.description.hasPrefix("recovery settled") })
        #expect(settled.metadata["key"] == "left" && settled.metadata["outcome"] == "replayed")
        #expect(settled.metadata["previous_owner"] == "gone")
    }

    @Test func testingWhatYouReport() async throws {
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        let worker = withMetricsFactory(metrics) {
            withTracer(tracer) { JournaledInvoker(journal: InMemoryCommandJournal(), registry: registry) }
        }
        try await worker.transaction("order", key: "order-42", steps: steps).run()
        _ = try metrics.expectCounter("behaviorkit_transactions", [("transaction", "order"), ("outcome", "completed")])
        #expect(
            tracer.finishedSpans.map(\.operationName) == [
                "behaviorkit.step", "behaviorkit.step", "behaviorkit.transaction",
            ])
    }
}
