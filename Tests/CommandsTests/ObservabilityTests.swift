import BehaviorKitTesting
import InMemoryLogging
import InMemoryTracing
import Logging
import Metrics
import MetricsTestKit
import Testing
import Tracing

@testable import Commands

/// The logging, metrics and tracing of durable work (the Observability article's promises).
struct ObservabilityTests {
    struct Note: JournaledCommand {
        static let journalKind = "test.note"
        let text: String
        var name: String { "note \(text)" }
        func execute() async throws {}
        func undo() async throws {}
    }

    struct Charge: JournaledStep {
        static let journalKind = "test.charge"
        let cents: Int
        var name: String { "charge \(cents)" }
        func execute(in context: DurableContext) async throws -> String {
            if cents < 0 { throw TestFailure("declined") }
            return "pay-\(cents)"
        }
        func compensate(_ output: String?, in context: DurableContext) async throws {
            if cents == 13 { throw TestFailure("refund refused") }
        }
    }

    let clock = ManualClock()
    let metrics = TestMetrics()
    let tracer = InMemoryTracer()
    let logs = InMemoryLogHandler()
    let stopped = JournalLease(owner: "stopped", duration: .seconds(30))

    var registry: CommandRegistry {
        var registry = CommandRegistry()
        registry.register(Note.self)
        registry.register(Charge.self)
        return registry
    }

    var logger: Logger {
        var logger = Logger(label: "test") { _ in logs }
        logger.logLevel = .trace
        return logger
    }

    /// What `make` makes where `metrics` and `tracer` are the current backends.
    func made<T>(_ make: () -> T) -> T {
        withMetricsFactory(metrics) { withTracer(tracer) { make() } }
    }

    /// An invoker made where `metrics` and `tracer` are the current backends.
    func invoker(_ journal: any CommandJournal, logger: Logger? = nil) -> JournaledInvoker {
        made { JournaledInvoker(journal: journal, registry: registry, owner: "me", clock: clock, logger: logger) }
    }

    func entries(_ message: String) -> [InMemoryLogHandler.Entry] {
        logs.entries.filter { $0.message.description == message }
    }

    @Test func withoutABackendOrALoggerDurableWorkHoldsNoInstrument() {
        let invoker = JournaledInvoker(journal: InMemoryCommandJournal(), clock: clock)
        #expect(!invoker.instruments.isOn)
        #expect(invoker.instruments.metrics == nil && invoker.instruments.tracer == nil)
    }

    @Test func transactionsAreCountedAndTimedByOutcome() async throws {
        let invoker = invoker(InMemoryCommandJournal(clock: clock))
        try await invoker.transaction("order", key: "o1", steps: [try DurableStep(Charge(cents: 5))]).run()
        try await invoker.transaction("order", key: "o1", steps: [try DurableStep(Charge(cents: 5))]).run()
        let declined = invoker.transaction(
            "order", key: "o2", steps: [try DurableStep(Charge(cents: 5)), try DurableStep(Charge(cents: -1))])
        await #expect(throws: TransactionError.self) { try await declined.run() }
        let refused = invoker.transaction(
            "order", key: "o3", steps: [try DurableStep(Charge(cents: 13)), try DurableStep(Charge(cents: -1))])
        await #expect(throws: TransactionError.self) { try await refused.run() }
        func count(_ outcome: String) throws -> Int64 {
            try metrics.expectCounter("behaviorkit_transactions", [("transaction", "order"), ("outcome", outcome)])
                .totalValue
        }
        #expect(try count("completed") == 1)
        #expect(try count("already_completed") == 1)
        #expect(try count("compensated") == 1)
        #expect(try count("failed") == 1)
        let timer = try metrics.expectTimer("behaviorkit_transaction_duration_seconds", [("transaction", "order")])
        #expect(timer.values.count == 3, "a run that found the key done is not timed")
    }

    @Test func aTransactionIsASpanWithASpanPerStepAndPerCompensation() async throws {
        let invoker = invoker(InMemoryCommandJournal(clock: clock))
        let order = invoker.transaction(
            "order", key: "o", steps: [try DurableStep(Charge(cents: 5)), try DurableStep(Charge(cents: -1))])
        await #expect(throws: TransactionError.self) { try await order.run() }
        let spans = tracer.finishedSpans
        let transaction = try #require(spans.first { $0.operationName == "behaviorkit.transaction" })
        #expect(transaction.attributes.get("behaviorkit.key") == .string("o"))
        #expect(transaction.attributes.get("behaviorkit.transaction.name") == .string("order"))
        #expect(transaction.attributes.get("behaviorkit.outcome") == .string("compensated"))
        #expect(transaction.status?.code == .error && transaction.errors.count == 1)
        let steps = spans.filter { $0.operationName == "behaviorkit.step" }
        #expect(steps.map { $0.attributes.get("behaviorkit.step.index") } == [.int64(0), .int64(1)])
        #expect(steps.map { $0.attributes.get("behaviorkit.key") } == [.string("o/0"), .string("o/1")])
        #expect(
            steps.map { $0.attributes.get("behaviorkit.step.name") } == [.string("charge 5"), .string("charge -1")])
        #expect(steps.allSatisfy { $0.parentSpanID == transaction.spanID })
        #expect(steps.map(\.errors.count) == [0, 1], "the failing step's span records its error")
        let compensations = spans.filter { $0.operationName == "behaviorkit.compensation" }
        #expect(compensations.map { $0.attributes.get("behaviorkit.step.index") } == [.int64(0)])
        #expect(compensations.allSatisfy { $0.traceID == transaction.traceID })
    }

    @Test func aFailedCompensationIsLoggedAsAnErrorAndALostLeaseAsAWarning() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let invoker = invoker(journal, logger: logger)
        let refused = invoker.transaction(
            "order", key: "o", steps: [try DurableStep(Charge(cents: 13)), try DurableStep(Charge(cents: -1))])
        await #expect(throws: TransactionError.self) { try await refused.run() }
        let compensation = try #require(entries("compensation failed; the step's effects may remain").first)
        #expect(compensation.level == .error)
        #expect(compensation.metadata["key"] == "o/0" && compensation.metadata["step"] == "0")
        #expect(compensation.metadata["transaction"] == "order" && compensation.metadata["owner"] == "me")
        #expect(entries("transaction failed: a compensation failed, its effects may remain").first?.level == .error)

        _ = try await journal.begin(try registry.entry(Note(text: "x"), key: "n"), lease: stopped)
        await clock.advance(by: .seconds(30))
        _ = try await journal.claim(1, from: nil, concurrency: nil, takingOverFrom: nil, lease: stopped)
        await #expect(throws: CommandJournalError.self) { try await invoker.perform(Note(text: "x"), key: "n") }
        #expect(entries("command busy").first?.level == .debug, "another worker's live record is not a warning")
    }

    @Test func recoveryLogsEachRecordItSettlesHowAndFromWhom() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let invoker = invoker(journal, logger: logger)
        _ = try await journal.begin(try registry.entry(Note(text: "a"), key: "run"), lease: stopped)
        _ = try await journal.begin(try registry.entry(Note(text: "b"), key: "keep"), lease: stopped)
        _ = try await journal.begin(CommandJournalEntry(idempotencyKey: "old", kind: "fax"), lease: stopped)
        let order = invoker.transaction("order", key: "t", steps: [try DurableStep(Charge(cents: 5))])
        _ = try await journal.begin(order.entry, lease: stopped)
        await clock.advance(by: .seconds(30))
        let report = try await invoker.recover { $0.id == "keep" ? .leavePending : .replay }
        #expect(report.replayed == ["run"] && report.compensatedTransactions == ["t"])
        let settled = logs.entries.filter { $0.message.description.hasPrefix("recovery settled a record") }
        #expect(settled.map { $0.metadata["key"] } == ["run", "keep", "t"])
        #expect(settled.map { $0.metadata["outcome"] } == ["replayed", "left_pending", "compensated"])
        #expect(settled.allSatisfy { $0.metadata["previous_owner"] == "stopped" && $0.level == .info })
        let unreadable = try #require(
            entries("recovery cannot read a record; left pending for a worker that can").first)
        #expect(unreadable.level == .warning && unreadable.metadata["key"] == "old")
        #expect(unreadable.metadata["error"]?.description.contains("'fax' is not registered") == true)
        #expect(
            entries("recovery: 1 replayed, 1 compensated, 0 completed, 0 failed, 1 left pending, 1 unreadable").first?
                .level == .info)

        for (outcome, count) in [("replayed", 1), ("compensated", 1), ("left_pending", 1), ("unreadable", 1)] {
            #expect(
                try metrics.expectCounter("behaviorkit_recovery_records", [("outcome", outcome)]).totalValue == count)
        }
        #expect(try metrics.expectTimer("behaviorkit_recovery_duration_seconds").values.count == 1)
        let recovery = try #require(tracer.finishedSpans.first { $0.operationName == "behaviorkit.recovery" })
        #expect(recovery.attributes.get("behaviorkit.recovery.replayed") == .int64(1))
        #expect(recovery.attributes.get("behaviorkit.recovery.unreadable") == .int64(1))
        let settledSpans = tracer.finishedSpans.filter { $0.parentSpanID == recovery.spanID }
        #expect(Set(settledSpans.map(\.operationName)) == ["behaviorkit.command", "behaviorkit.transaction"])
    }

    @Test func aQueueWorkerCountsClaimsTakeoversAndOutcomes() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let invoker = invoker(journal)
        let queue = CommandQueue("payments", journal: journal)
        try await queue.enqueue(Charge(cents: 5), key: "ok")
        try await queue.enqueue(Charge(cents: -1), key: "declined")
        try await queue.enqueue(kind: "fax", arguments: 1, key: "unknown")
        let worker = made { QueueWorker(queue, invoker: invoker, slots: 4, logger: logger) }
        _ = try await journal.claim(1, from: "payments", concurrency: nil, takingOverFrom: nil, lease: stopped)
        await clock.advance(by: .seconds(30))  // "ok", claimed by a worker that stopped, is taken over
        try await worker.runDue()
        func count(_ outcome: String) throws -> Int64 {
            try metrics.expectCounter("behaviorkit_queue_records", [("queue", "payments"), ("outcome", outcome)])
                .totalValue
        }
        #expect(try count("done") == 1 && count("failed") == 1 && count("unreadable") == 1)
        #expect(try metrics.expectCounter("behaviorkit_queue_claimed", [("queue", "payments")]).totalValue == 3)
        #expect(try metrics.expectCounter("behaviorkit_queue_taken_over", [("queue", "payments")]).totalValue == 1)
        let takeover = try #require(entries("took over a record from a stopped worker").first)
        #expect(takeover.metadata["previous_owner"] == "stopped" && takeover.metadata["key"] == "ok")
        #expect(takeover.metadata["queue"] == "payments" && takeover.level == .info)
        #expect(entries("cannot read a queued record; given back for a worker that can").first?.level == .warning)
        let records = tracer.finishedSpans.filter { $0.operationName == "behaviorkit.queue.record" }
        #expect(records.count == 3)
    }

    @Test func aJournaledCommandIsASpanAndCountedByKind() async throws {
        let invoker = invoker(InMemoryCommandJournal(clock: clock))
        _ = try await invoker.perform(Charge(cents: 5), key: "c")
        _ = try await invoker.perform(Charge(cents: 5), key: "c")
        await #expect(throws: TestFailure.self) { _ = try await invoker.perform(Charge(cents: -1), key: "d") }
        func count(_ outcome: String) throws -> Int64 {
            try metrics.expectCounter("behaviorkit_commands", [("kind", "test.charge"), ("outcome", outcome)])
                .totalValue
        }
        #expect(try count("done") == 1 && count("already_completed") == 1 && count("failed") == 1)
        let spans = tracer.finishedSpans.filter { $0.operationName == "behaviorkit.command" }
        #expect(
            spans.map { $0.attributes.get("behaviorkit.outcome") }
                == [.string("done"), .string("already_completed"), .string("failed")])
    }
}
