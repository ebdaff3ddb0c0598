import BehaviorKitTesting
import Commands
import Testing

/// A job's handle end to end, as a user writes it: a step enqueued, run by a worker, its output
/// answered by `result(as:)`; a step that throws, its failure thrown as a `JobError`. The
/// handle and the worker sleep on a manual clock that never moves: only a settlement wakes the
/// handle.
struct JobHandleTests {
    struct Quote: JournaledStep {
        static let journalKind = "test.quote"
        let cents: Int
        var name: String { "quote \(cents)" }
        func execute(in context: DurableContext) async throws -> Int {
            if cents < 0 { throw JobHandleTestFailure() }
            return cents * 2
        }
        func compensate(_ output: Int?, in context: DurableContext) async throws {}
    }

    struct JobHandleTestFailure: Error, CustomStringConvertible {
        var description: String { "no price below zero" }
    }

    @Test func aHandleAnswersTheOutputOfTheJobAWorkerRan() async throws {
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        var registry = CommandRegistry()
        registry.register(Quote.self)
        let quotes = CommandQueue("quotes", journal: journal)
        try await quotes.enqueue(Quote(cents: 21), key: "quote-21")
        try await quotes.enqueue(Quote(cents: -1), key: "quote-negative")
        let answer = Task { try await quotes.job(forKey: "quote-21", clock: clock).result(as: Int.self) }
        let failure = Task { try await quotes.job(forKey: "quote-negative", clock: clock).result() }
        await clock.waitForSleepers(count: 2)  // both handles wait: the jobs are pending
        let worker = QueueWorker(
            quotes, invoker: JournaledInvoker(journal: journal, registry: registry, clock: clock),
            pollInterval: .seconds(3_600))
        let run = Task { await worker.run() }
        #expect(try await answer.value == 42)
        await #expect(throws: JobError.failed(key: "quote-negative", reason: "no price below zero")) {
            try await failure.value
        }
        #expect(
            String(describing: JobError.failed(key: "quote-negative", reason: "no price below zero"))
                == "job 'quote-negative' failed: no price below zero")
        run.cancel()
        await run.value
    }
}

extension JobHandleTests {
    /// A transaction cancelled while a worker ran it is taken from the worker, compensated by the
    /// next one, and kept compensated: its handle throws the cancellation, with its reason.
    @Test func aTransactionCancelledWhileItRanThrowsItsCancellation() async throws {
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        let worker = JournalLease(owner: "worker", duration: .seconds(30))
        let next = JournalLease(owner: "next", duration: .seconds(30))
        let entry = CommandJournalEntry(
            idempotencyKey: "checkout-7", kind: CommandJournalCancellation.transactionKind, payload: [])
        _ = try await journal.begin(entry, lease: worker)
        let waiting = Task {
            try await CommandQueue("checkouts", journal: journal).job(forKey: "checkout-7", clock: clock).result()
        }
        await clock.waitForSleepers(count: 1)
        _ = try await journal.cancel("checkout-7", reason: "customer left")
        let taken = try await journal.claim(1, from: nil, concurrency: nil, lease: next)
        let record = try #require(taken.records.first)
        try await journal.settle("checkout-7", as: .compensated, lease: next.fenced(by: record))
        await #expect(throws: JobError.cancelled(key: "checkout-7", reason: "customer left")) {
            try await waiting.value
        }
    }
}
