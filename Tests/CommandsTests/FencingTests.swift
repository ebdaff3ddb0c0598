import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// Attempt fencing: once a record is claimed again, the attempt before never acts or writes
/// again — whoever claimed it, the same worker included — and no step starts on a lease the
/// worker cannot prove is still valid for a margin.
struct FencingTests {
    /// The journal's clock (it judges leases) and the worker's own monotonic clock, apart, so
    /// that a test can let a lease lapse without the worker noticing: a paused process.
    let journalClock = ManualClock()
    let workerClock = ManualClock()
    let trace = Trace()

    /// Steps that trace "run <index> attempt <n>"; the first call of each index waits at its gate.
    func registry(_ gates: [AsyncGate]) -> CommandRegistry {
        let calls = LockedValue<[Int: Int]>([:])
        var registry = CommandRegistry()
        registry.register("test.step", arguments: Int.self) { [trace] index in
            ClosureCommand("step \(index)") {
                let call = calls.withLock { calls -> Int in
                    calls[index, default: 0] += 1
                    return calls[index, default: 1]
                }
                if call == 1, index < gates.count { await gates[index].wait() }
                trace("run \(index) attempt \(DurableContext.current?.attempt ?? 0)")
            } undo: {
                trace("undo \(index) attempt \(DurableContext.current?.attempt ?? 0)")
            }
        }
        return registry
    }

    @Test func aWorkerThatClaimsAgainARecordItLostFencesItsOldAttempt() async throws {
        let journal = InMemoryCommandJournal(clock: journalClock)
        let gates = [AsyncGate(), AsyncGate()]
        let invoker = JournaledInvoker(
            journal: journal, registry: registry(gates), owner: "w", leaseDuration: .seconds(30), clock: workerClock)
        let queue = CommandQueue("q", journal: journal)
        let steps = try (0..<2).map { try invoker.registry.step("test.step", arguments: $0) }
        _ = try await queue.enqueue(invoker.transaction("order", key: "t", steps: steps))
        let worker = QueueWorker(queue, invoker: invoker, slots: 2)
        let first = Task { try await worker.runDue() }
        await gates[0].waitForWaiter()  // attempt 1 runs step 0, and its process stalls
        await journalClock.advance(by: .seconds(31))  // its lease lapses meanwhile
        let second = Task { try await worker.runDue() }  // the same worker claims the record again
        await gates[1].waitForWaiter()  // attempt 2 ran step 0 and is in step 1
        gates[0].open()  // attempt 1 resumes
        _ = try await first.value
        gates[1].open()
        _ = try await second.value
        #expect(
            !trace.lines.contains("run 1 attempt 1"),
            "attempt 1 ran step 1 beside attempt 2: \(trace.lines)")
        #expect(trace.lines.filter { $0.hasPrefix("run 1") } == ["run 1 attempt 2"], "\(trace.lines)")
        #expect(try await journal.record(forKey: "t")?.status == .done)
    }

    @Test func noStepStartsOnARenewalThatAnsweredTooLate() async throws {
        let journal = InMemoryCommandJournal(clock: journalClock)
        let slow = SlowRenewals(journal, clock: workerClock, delay: .seconds(25))
        var registry = CommandRegistry()
        registry.register("test.step", arguments: Int.self) { [trace, workerClock] index in
            ClosureCommand("step \(index)") {
                if index == 0 { try await workerClock.sleep(for: .seconds(11)) }
                trace("run \(index)")
            }
        }
        let invoker = JournaledInvoker(
            journal: slow, registry: registry, owner: "w", leaseDuration: .seconds(30), clock: workerClock)
        let steps = try (0..<2).map { try registry.step("test.step", arguments: $0) }
        let order = invoker.transaction("order", key: "t", steps: steps)
        let task = Task { try await order.run() }
        await workerClock.waitForSleepers(count: 2)
        // Step 0 ends at 11 s, so step 1 must renew first (the lease was confirmed over a third
        // ago); the renewal answers at 36 s: less than a third of the lease is left by then.
        for _ in 0..<40 { await workerClock.advance(by: .seconds(1)) }
        await #expect(throws: CommandJournalError.leaseLost(key: "t", owner: nil)) { try await task.value }
        #expect(trace.lines == ["run 0"], "step 1 started on a lease confirmed 25 s late")
    }
}

/// A journal whose renewals answer `delay` after they are sent, on `clock`, and whose write
/// stalls cannot cost a lease (as SQLite's): the worker's watchdog waits for them.
final class SlowRenewals: CommandJournal {
    let base: any CommandJournal
    let clock: ManualClock
    let delay: Duration

    init(_ base: any CommandJournal, clock: ManualClock, delay: Duration) {
        self.base = base
        self.clock = clock
        self.delay = delay
    }

    var leasesOutlastWriteStalls: Bool { true }

    func renew(_ attempts: [String: Int], lease: JournalLease) async throws -> [String] {
        let kept = try await base.renew(attempts, lease: lease)
        try await clock.sleep(for: delay)
        return kept
    }
    func begin(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalBegin {
        try await base.begin(entry, lease: lease)
    }
    func append(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalRecord {
        try await base.append(entry, lease: lease)
    }
    func settle(_ key: String, as settlement: CommandJournalSettlement, lease: JournalLease) async throws {
        try await base.settle(key, as: settlement, lease: lease)
    }
    func settle(_ changes: [CommandJournalChange], lease: JournalLease) async throws {
        try await base.settle(changes, lease: lease)
    }
    func release(_ key: String, lease: JournalLease, after delay: Duration) async throws {
        try await base.release(key, lease: lease, after: delay)
    }
    func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, takingOverFrom deadOwner: String?, lease: JournalLease
    ) async throws -> CommandJournalClaim {
        try await base.claim(limit, from: queue, concurrency: concurrency, takingOverFrom: deadOwner, lease: lease)
    }
    func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration
    ) async throws -> CommandJournalRecord {
        try await base.enqueue(entry, queue: queue, after: delay)
    }
    func prune(
        settledBefore date: Date, statuses: Set<CommandJournalStatus>, queue: String?, limit: Int?
    ) async throws -> Int {
        try await base.prune(settledBefore: date, statuses: statuses, queue: queue, limit: limit)
    }
    func retry(
        matching filter: CommandJournalFilter, after cursor: Int64?, limit: Int
    ) async throws -> JournalBulkResult {
        try await base.retry(matching: filter, after: cursor, limit: limit)
    }
    func cancel(
        matching filter: CommandJournalFilter, reason: String, after cursor: Int64?, limit: Int
    ) async throws -> JournalBulkResult {
        try await base.cancel(matching: filter, reason: reason, after: cursor, limit: limit)
    }
    func record(forKey key: String) async throws -> CommandJournalRecord? { try await base.record(forKey: key) }
    func unfinished() async throws -> [CommandJournalRecord] { try await base.unfinished() }
    func records(parentKey: String) async throws -> [CommandJournalRecord] {
        try await base.records(parentKey: parentKey)
    }
    func allRecords() async throws -> [CommandJournalRecord] { try await base.allRecords() }
}
