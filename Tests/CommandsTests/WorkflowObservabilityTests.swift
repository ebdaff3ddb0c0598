import BehaviorKitTesting
import Commands
import InMemoryTracing
import MetricsTestKit
import Testing
import Tracing

/// A workflow's metrics and trace (the Observability article's promises): each attempt at a run
/// counted and timed by how it ended; a span per attempt
/// (`behaviorkit.workflow`), continuing the trace of the caller that started it, whose children
/// are the steps the attempt ran (`behaviorkit.workflow.step`); a step answered from the journal
/// makes no span.
extension ObservabilityTests {
    func key(_ span: FinishedInMemorySpan) -> String? {
        if case .string(let key) = span.attributes.get("behaviorkit.key") { key } else { nil }
    }

    func string(_ span: FinishedInMemorySpan, _ name: String) -> String? {
        if case .string(let value) = span.attributes.get(name) { value } else { nil }
    }

    /// `workflow`'s runs on `journal`, by an invoker made where the test backends are current.
    func workflows<Input: Codable & Sendable, Output: Codable & Sendable>(
        of workflow: Workflow<Input, Output>, on journal: InMemoryCommandJournal
    ) -> Workflows {
        var registry = WorkflowRegistry()
        registry.register(workflow)
        return Workflows(registry, queue: CommandQueue("workflows", journal: journal), invoker: invoker(journal))
    }

    @Test func aWorkflowsAttemptsAreSpansWhoseChildrenAreTheStepsTheyRan() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let ship = Workflow("ship") { (context, order: Int) -> Int in
            _ = try await context.step("reserve") { _ in order }
            try await context.sleep(for: .seconds(60))
            _ = try await context.step("send") { _ in order }
            return order
        }
        let workflows = workflows(of: ship, on: journal)
        _ = try await withTracer(tracer) {
            try await tracer.withSpan("POST /orders") { _ in
                try await workflows.start(ship, key: "order-1", input: 1)
            }
        }
        #expect(try await workflows.runDue() == 1)  // reserve, then the sleep
        await clock.advance(by: .seconds(61))
        #expect(try await workflows.runDue() == 1)  // reserve answered from the journal, send

        let request = try #require(tracer.finishedSpans.first { $0.operationName == "POST /orders" })
        let attempts = tracer.finishedSpans.filter { $0.operationName == "behaviorkit.workflow" }
        #expect(attempts.count == 2)
        #expect(attempts.map { string($0, "behaviorkit.outcome") } == ["waiting", "done"])
        for attempt in attempts {
            #expect(key(attempt) == "order-1" && string(attempt, "behaviorkit.workflow.name") == "ship")
            #expect(attempt.traceID == request.traceID && attempt.spanContext.parentSpanID == request.spanID)
            #expect(attempt.kind == .consumer)
        }
        let steps = tracer.finishedSpans.filter { $0.operationName == "behaviorkit.workflow.step" }
        #expect(steps.map { string($0, "behaviorkit.step.name") } == ["reserve", "send"])
        #expect(steps[0].spanContext.parentSpanID == attempts[0].spanID)
        #expect(steps[1].spanContext.parentSpanID == attempts[1].spanID)

        for outcome in ["waiting", "done"] {
            #expect(
                try metrics.expectCounter(
                    "behaviorkit_workflow_attempts", [("workflow", "ship"), ("outcome", outcome)]
                )
                .totalValue == 1)
        }
        let timer = try metrics.expectTimer("behaviorkit_workflow_attempt_duration_seconds", [("workflow", "ship")])
        #expect(timer.values.count == 2)
    }

    @Test func aWorkflowRunInItsCallersTaskIsInTheCallersTrace() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let charge = Workflow("charge") { (context, cents: Int) -> Int in
            try await context.step("charge") { _ in cents }
        }
        let workflows = workflows(of: charge, on: journal)
        _ = try await withTracer(tracer) {
            try await tracer.withSpan("POST /pay") { _ in
                try await workflows.run(charge, key: "pay-1", input: 5)
            }
        }
        let request = try #require(tracer.finishedSpans.first { $0.operationName == "POST /pay" })
        let attempt = try #require(tracer.finishedSpans.first { $0.operationName == "behaviorkit.workflow" })
        #expect(attempt.spanContext.parentSpanID == request.spanID)
        let step = try #require(tracer.finishedSpans.first { $0.operationName == "behaviorkit.workflow.step" })
        #expect(step.spanContext.parentSpanID == attempt.spanID && key(step) == "pay-1/0")
    }

    /// A rollback's compensations are spans `behaviorkit.workflow.compensation`, children of the
    /// attempt's span, named by their step; the attempt's outcome is `compensated`.
    @Test func aRollbacksCompensationsAreSpansOfTheAttempt() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        struct Refused: Error {}
        let book = Workflow("book") { (context, order: Int) -> Int in
            try await context.step("charge") { _ in
                order
            } compensate: { _, _ in
            }
            try await context.step("reserve") { _ in
                order
            } compensate: { _, _ in
            }
            throw Refused()
        }
        let workflows = workflows(of: book, on: journal)
        try await workflows.start(book, key: "order-1", input: 1)
        #expect(try await workflows.runDue() == 1)

        let attempt = try #require(tracer.finishedSpans.first { $0.operationName == "behaviorkit.workflow" })
        #expect(string(attempt, "behaviorkit.outcome") == "compensated")
        let compensations = tracer.finishedSpans.filter { $0.operationName == "behaviorkit.workflow.compensation" }
        #expect(compensations.map { string($0, "behaviorkit.step.name") } == ["reserve", "charge"])
        #expect(compensations.map(key) == ["order-1/1", "order-1/0"])
        #expect(compensations.allSatisfy { $0.spanContext.parentSpanID == attempt.spanID })
    }
}
