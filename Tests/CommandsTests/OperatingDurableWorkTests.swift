import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// Cancelling a transaction while it runs, and retries, seen from the workers' side.
struct OperatingDurableWorkTests {
    let clock = ManualClock()
    let trace = Trace()

    func registry(_ gate: AsyncGate) -> CommandRegistry {
        var registry = CommandRegistry()
        registry.register("test.gate", arguments: Int.self) { [trace] number in
            ClosureCommand("gate \(number)") {
                trace("start \(number)")
                await gate.wait()
                trace("end \(number)")
            } undo: {
                trace("undo \(number)")
            }
        }
        registry.register("test.note", arguments: String.self) { [trace] text in
            ClosureCommand("note") {
                trace(text)
            } undo: {
                trace("undo \(text)")
            }
        }
        return registry
    }

    @Test func aCancelledTransactionStopsBeforeItsNextStepAndIsCompensated() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let gate = AsyncGate()
        let registry = registry(gate)
        let runner = JournaledInvoker(journal: journal, registry: registry, owner: "runner", clock: clock)
        let order = runner.transaction(
            "order", key: "t",
            steps: [try registry.step("test.gate", arguments: 1), try registry.step("test.note", arguments: "shipped")])
        let running = Task { try await order.run() }
        await gate.waitForWaiter()
        let cancelled = try await journal.cancel("t", reason: "customer asked")
        #expect(cancelled.owner == nil && cancelled.attempts == 2)
        gate.open()
        await #expect(throws: CommandJournalError.leaseLost(key: "t", owner: nil)) { try await running.value }
        #expect(trace.lines == ["start 1", "end 1"], "the next step never started")
        let recoverer = JournaledInvoker(journal: journal, registry: registry, owner: "recoverer", clock: clock)
        let report = try await recoverer.recover()
        #expect(report.compensatedTransactions == ["t"])
        #expect(trace.lines == ["start 1", "end 1", "undo 1"], "the step that ran unwritten was undone")
        let details = try #require(try await journal.details(forKey: "t"))
        #expect(details.record.status == .compensated)
        #expect(details.compensationReason == "cancelled: customer asked")
        #expect(details.attempts.map(\.error) == ["cancelled: customer asked", nil, nil])
        await #expect(throws: CommandJournalError.alreadySettled(key: "t", status: .compensated, reason: nil)) {
            try await order.run()
        }
    }

    @Test func aStepThatFailsEveryAttemptRollsTheTransactionBack() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let attempts = LockedValue(0)
        var registry = registry(AsyncGate())
        struct Refused: Error {}
        registry.register("test.flaky", arguments: Int.self) { [trace] _ in
            ClosureCommand("flaky") {
                attempts.withLock { $0 += 1 }
                trace("flaky")
                throw Refused()
            }
        }
        registry.setRetryPolicy(RetryPolicy(maxAttempts: 3, initialDelay: .zero, jitter: 0), forKind: "test.flaky")
        let invoker = JournaledInvoker(journal: journal, registry: registry, clock: clock)
        let order = invoker.transaction(
            "order", key: "t",
            steps: [
                try registry.step("test.note", arguments: "reserved"), try registry.step("test.flaky", arguments: 0),
            ])
        await #expect(throws: TransactionError.self) { try await order.run() }
        #expect(attempts.withLock { $0 } == 3, "three attempts in all")
        #expect(trace.lines == ["reserved", "flaky", "flaky", "flaky", "undo reserved"])
        let steps = try await journal.records(parentKey: "t").map { "\($0.id) \($0.status)" }
        #expect(steps == ["t/0 compensated", "t/1 failed"])
    }

    @Test func aWorkersDefaultPolicyAppliesToKindsWithoutOne() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        var registry = CommandRegistry()
        struct Down: Error, CustomStringConvertible { var description: String { "partner down" } }
        registry.register("test.down", arguments: String.self) { [trace] text in
            ClosureCommand("down") {
                trace(text)
                throw Down()
            }
        }
        registry.register("test.once", arguments: String.self) { [trace] text in
            ClosureCommand("once") {
                trace(text)
                throw Down()
            }
        }
        registry.setRetryPolicy(.never, forKind: "test.once")
        let invoker = JournaledInvoker(journal: journal, registry: registry, clock: clock)
        let queue = CommandQueue("q", journal: journal)
        try await queue.enqueue(kind: "test.down", arguments: "down", key: "a")
        try await queue.enqueue(kind: "test.once", arguments: "once", key: "b")
        let worker = QueueWorker(
            queue, invoker: invoker, retryPolicy: RetryPolicy(maxAttempts: 2, initialDelay: .seconds(3), jitter: 0))
        try await worker.runDue()
        #expect(try await journal.record(forKey: "a")?.status == .pending, "the worker's policy retries 'a'")
        #expect(try await journal.record(forKey: "b")?.status == .failed, "the registry's policy for 'b' wins")
        await clock.advance(by: .seconds(3))
        try await worker.runDue()
        #expect(try await journal.record(forKey: "a")?.status == .failed)
        #expect(trace.lines.sorted() == ["down", "down", "once"])
        #expect(worker.statistics.retried == 1 && worker.statistics.failed == 2)
        #expect(
            "\(worker.statistics)" == "queue q: 3 claimed (1 taken over), 0 done, 2 failed, 0 compensated, 1 retried")
    }

    @Test func aJournalWithoutTheManagementAPIIsRefusedAQueuesPauseByName() async throws {
        let journal = WorkersOnlyJournal(base: InMemoryCommandJournal(clock: clock))
        let queue = CommandQueue("q", journal: journal)
        let refusal = "pausing a queue: WorkersOnlyJournal is no CommandJournalManagement"
        await #expect(throws: CommandJournalError.unsupported(operation: refusal)) { try await queue.pause() }
        // What workers use still works, and its default read of a page filters every record.
        let record = try await journal.enqueue(.init(idempotencyKey: "k", kind: "test"), queue: "q", after: .zero)
        let page = try await journal.records(matching: .init(queue: "q"), after: nil, limit: 10)
        #expect(page.records.map(\.id) == [record.id] && page.nextCursor == nil)
    }

    @Test func workersAndQueuesAnswerTheirQuestions() {
        let now = Date(timeIntervalSince1970: 1000)
        let worker = CommandJournalWorker(
            owner: "w", holds: ["a"], leaseExpiresAt: now.addingTimeInterval(1), earliestLeaseExpiry: now)
        #expect(worker.isLive(at: now) && !worker.isLive(at: now.addingTimeInterval(1)))
        #expect(CommandJournalQueueStatistics(name: "q", due: 1, delayed: 2, running: 3, stalled: 4).depth == 10)
        #expect(
            "\(CommandJournalError.unsupported(operation: "queues()"))" == "this journal does not implement queues()")
    }
}

/// A journal with only what workers use (``CommandJournal``), none of the management API.
struct WorkersOnlyJournal: CommandJournal {
    let base: InMemoryCommandJournal

    func begin(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalBegin {
        try await base.begin(entry, lease: lease)
    }
    func append(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalRecord {
        try await base.append(entry, lease: lease)
    }
    func settle(_ key: String, as settlement: CommandJournalSettlement, lease: JournalLease) async throws {
        try await base.settle(key, as: settlement, lease: lease)
    }
    func renew(_ attempts: [String: Int], lease: JournalLease) async throws -> [String] {
        try await base.renew(attempts, lease: lease)
    }
    func release(_ key: String, lease: JournalLease, after delay: Duration, failure: String?) async throws {
        try await base.release(key, lease: lease, after: delay, failure: failure)
    }
    func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, perPartition: Int?, takingOverFrom deadOwner: String?,
        lease: JournalLease
    ) async throws -> CommandJournalClaim {
        try await base.claim(
            limit, from: queue, concurrency: concurrency, perPartition: perPartition, takingOverFrom: deadOwner,
            lease: lease)
    }
    func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration, priority: Int, partition: String?,
        traceContext: [String: String]?
    ) async throws -> CommandJournalRecord {
        try await base.enqueue(
            entry, queue: queue, after: delay, priority: priority, partition: partition, traceContext: traceContext)
    }
    func logAttempt(
        _ attempt: CommandJournalAttempt, of key: String, parentKey: String?, lease: JournalLease
    ) async throws {
        try await base.logAttempt(attempt, of: key, parentKey: parentKey, lease: lease)
    }
    func record(forKey key: String) async throws -> CommandJournalRecord? { try await base.record(forKey: key) }
    func unfinished() async throws -> [CommandJournalRecord] { try await base.unfinished() }
    func records(parentKey: String) async throws -> [CommandJournalRecord] {
        try await base.records(parentKey: parentKey)
    }
    func allRecords() async throws -> [CommandJournalRecord] { try await base.allRecords() }
}
