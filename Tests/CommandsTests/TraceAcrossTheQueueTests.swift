import BehaviorKitTesting
import Commands
import InMemoryTracing
import Testing
import Tracing

/// Traces that cross the queue: the span of a queued record's run continues the trace of the
/// caller that enqueued it (the Observability article's promise).
extension ObservabilityTests {
    @Test func aQueuedRecordsSpanContinuesTheTraceOfItsCaller() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let queue = CommandQueue("payments", journal: journal)
        _ = try await withTracer(tracer) {
            try await tracer.withSpan("POST /orders") { _ in
                try await queue.enqueue(Charge(cents: 5), key: "order-1/charge")
            }
        }
        try await queue.enqueue(Charge(cents: 7), key: "order-2/charge")  // no trace around it
        let worker = made { QueueWorker(queue, invoker: invoker(journal), slots: 4) }
        try await worker.runDue()

        let request = try #require(tracer.finishedSpans.first { $0.operationName == "POST /orders" })
        let runs = tracer.finishedSpans.filter { $0.operationName == "behaviorkit.queue.record" }
        func key(_ span: FinishedInMemorySpan) -> String? {
            if case .string(let key) = span.attributes.get("behaviorkit.key") { key } else { nil }
        }
        let traced = try #require(runs.first { key($0) == "order-1/charge" })
        #expect(traced.traceID == request.traceID)
        #expect(traced.spanContext.parentSpanID == request.spanID)
        #expect(traced.kind == .consumer)
        let commands = tracer.finishedSpans.filter { $0.operationName == "behaviorkit.command" }
        #expect(commands.contains { $0.traceID == request.traceID && $0.spanContext.parentSpanID == traced.spanID })
        let untraced = try #require(runs.first { key($0) == "order-2/charge" })
        #expect(untraced.traceID != request.traceID && untraced.spanContext.parentSpanID == nil)
        #expect(untraced.kind == .internal)
    }
}
