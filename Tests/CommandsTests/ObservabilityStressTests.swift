import BehaviorKitTesting
import Commands
import InMemoryLogging
import InMemoryTracing
import Logging
import Metrics
import MetricsTestKit
import Testing
import Tracing

/// Durable transactions from many tasks with every instrument on: each is counted and traced
/// once (and, under ThreadSanitizer, nothing races).
struct ObservabilityStressTests {
    @Test func concurrentTransactionsAreEachCountedOnceStress() async throws {
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        var logger = Logger(label: "stress") { _ in InMemoryLogHandler() }
        logger.logLevel = .trace
        // Leases on a clock that stands still: 200 transactions on a starved machine may take longer
        // than a real lease, and a lost lease is another outcome than the one counted here.
        let journal = InMemoryCommandJournal(clock: ManualClock())
        let invoker = withMetricsFactory(metrics) {
            withTracer(tracer) { JournaledInvoker(journal: journal, logger: logger) }
        }
        let count = 200
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    let fails = index % 4 == 0
                    let steps = [
                        try DurableStep("test.ok", arguments: index, command: ClosureCommand("ok") {}),
                        try DurableStep(
                            "test.maybe", arguments: index,
                            command: ClosureCommand("maybe") { if fails { throw TestFailure("no") } }),
                    ]
                    _ = try? await invoker.transaction("stress", key: "t\(index)", steps: steps).run()
                }
            }
            try await group.waitForAll()
        }
        func total(_ outcome: String) throws -> Int64 {
            try metrics.expectCounter("behaviorkit_transactions", [("transaction", "stress"), ("outcome", outcome)])
                .totalValue
        }
        #expect(try total("completed") == Int64(count - count / 4))
        #expect(try total("compensated") == Int64(count / 4))
        let transactions = tracer.finishedSpans.filter { $0.operationName == "behaviorkit.transaction" }
        #expect(transactions.count == count)
    }
}
