import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// The heartbeat that keeps a live worker's work its own, and stops a worker that can no
/// longer prove it holds its work.
struct LeaseTests {
    let clock = ManualClock()
    let trace = Trace()

    /// A step that writes "start" and "end" to the trace around a long sleep on the clock
    /// ("cancelled" when its task is cancelled).
    func longStep(_ seconds: Int) throws -> DurableStep {
        try DurableStep(
            "test.long", arguments: seconds,
            command: ClosureCommand("long") { [trace, clock] in
                trace("start")
                do {
                    try await clock.sleep(for: .seconds(seconds))
                } catch {
                    trace("cancelled")
                    throw error
                }
                trace("end")
            })
    }

    @Test func aLiveWorkersLongStepKeepsItsTransaction() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let invoker = JournaledInvoker(journal: journal, clock: clock)
        let rival = JournaledInvoker(journal: journal, registry: CommandRegistry(), clock: clock)
        let order = invoker.transaction("order", key: "t", steps: [try longStep(100)])
        let task = Task { try await order.run() }
        await clock.waitForSleepers(count: 2)
        for _ in 0..<9 {
            let before = try await journal.record(forKey: "t")?.leaseExpiresAt
            await clock.advance(by: .seconds(10))
            // The heartbeat renews on each tick, in a task of its own: the next tick waits for that
            // renewal, as real time would (under a loaded machine the clock could otherwise run three
            // ticks ahead of the renewals, and the lease lapse at 60 s).
            #expect(try await leaseMoved(of: "t", in: journal, past: before), "no renewal at \(clock.now)")
            #expect(try await rival.recover().isEmpty, "a live worker's transaction was taken at \(clock.now)")
        }
        await clock.advance(by: .seconds(10))
        _ = try await task.value
        #expect(trace.lines == ["start", "end"])
        #expect(try await journal.record(forKey: "t")?.status == .done)
    }

    /// Yields until the lease of `key` ends later than `before` (a renewal went through), or a
    /// generous number of yields passed; returns whether it did, so that the test fails, not hangs.
    func leaseMoved(of key: String, in journal: InMemoryCommandJournal, past before: Date?) async throws -> Bool {
        for _ in 0..<100_000 {
            if let expiry = try await journal.record(forKey: key)?.leaseExpiresAt, expiry > before ?? .distantPast {
                return true
            }
            await Task.yield()
        }
        return false
    }

    @Test func aWorkerThatCannotRenewStopsBeforeItsLeaseExpires() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let partitioned = PartitionedJournal(journal)
        let invoker = JournaledInvoker(journal: partitioned, clock: clock)
        let order = invoker.transaction("order", key: "t", steps: [try longStep(100)])
        let task = Task { try await order.run() }
        await clock.waitForSleepers(count: 2)
        partitioned.cut()
        await clock.advance(by: .seconds(10))
        // The heartbeat's failed renewal sleeps again before the clock moves on: otherwise a late
        // renewal could sleep past the second tick, on a clock that no longer moves (a hang).
        await clock.waitForSleepers(count: 2)
        await clock.advance(by: .seconds(10))
        await #expect(throws: CommandJournalError.leaseLost(key: "t", owner: nil)) { try await task.value }
        #expect(trace.lines == ["start", "cancelled"], "the step stopped at 20 s, before the lease ends at 30 s")
        #expect(try await journal.record(forKey: "t")?.status == .pending, "nothing was settled by a stopped worker")
        await clock.advance(by: .seconds(10))
        var registry = CommandRegistry()
        registry.register("test.long", arguments: Int.self) { [trace] _ in
            ClosureCommand("long") {
            } undo: {
                trace("undo")
            }
        }
        let rival = JournaledInvoker(journal: journal, registry: registry, clock: clock)
        #expect(try await rival.recover().compensatedTransactions == ["t"])
        #expect(trace.lines == ["start", "cancelled", "undo"])
    }

    @Test func aWorkerWhoseRecordWasTakenOverCannotSettleIt() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let invoker = JournaledInvoker(journal: journal, clock: clock)
        let stalled = JournalLease(owner: "stalled", duration: .seconds(30))
        _ = try await journal.begin(CommandJournalEntry(idempotencyKey: "k", kind: "test"), lease: stalled)
        await clock.advance(by: .seconds(30))
        let claim = try await journal.claim(1, from: nil, concurrency: nil, lease: invoker.lease)
        #expect(claim.records.map(\.id) == ["k"])
        await #expect(throws: CommandJournalError.leaseLost(key: "k", owner: invoker.owner)) {
            try await journal.settle("k", as: .done(output: nil), lease: stalled)
        }
    }
}

/// A journal whose renewals fail once cut: a worker cut off from its database.
final class PartitionedJournal: CommandJournal {
    struct Unreachable: Error {}
    let base: any CommandJournal
    private let isCut = LockedValue(false)

    init(_ base: any CommandJournal) { self.base = base }

    func cut() { isCut.withLock { $0 = true } }

    private func reach() throws { if isCut.withLock({ $0 }) { throw Unreachable() } }

    func begin(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalBegin {
        try reach()
        return try await base.begin(entry, lease: lease)
    }
    func append(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalRecord {
        try reach()
        return try await base.append(entry, lease: lease)
    }
    func settle(_ key: String, as settlement: CommandJournalSettlement, lease: JournalLease) async throws {
        try reach()
        try await base.settle(key, as: settlement, lease: lease)
    }
    func renew(_ attempts: [String: Int], lease: JournalLease) async throws -> [String] {
        try reach()
        return try await base.renew(attempts, lease: lease)
    }
    func release(_ key: String, lease: JournalLease, after delay: Duration) async throws {
        try reach()
        try await base.release(key, lease: lease, after: delay)
    }
    func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, takingOverFrom deadOwner: String?, lease: JournalLease
    ) async throws -> CommandJournalClaim {
        try reach()
        return try await base.claim(
            limit, from: queue, concurrency: concurrency, takingOverFrom: deadOwner, lease: lease)
    }
    func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration
    ) async throws
        -> CommandJournalRecord
    {
        try reach()
        return try await base.enqueue(entry, queue: queue, after: delay)
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

extension LeaseTests {
    @Test func aWorkerWhoseRenewalsHangStopsBeforeItsLeaseExpires() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let slow = ScriptedJournal(journal, clock: clock)
        let invoker = JournaledInvoker(journal: slow, clock: clock)
        let order = invoker.transaction("order", key: "t", steps: [try longStep(100)])
        let task = Task { try await order.run() }
        await clock.waitForSleepers(count: 2)
        slow.hang()
        await clock.advance(by: .seconds(10))
        await clock.advance(by: .seconds(10))
        await #expect(throws: CommandJournalError.leaseLost(key: "t", owner: nil)) { try await task.value }
        #expect(trace.lines == ["start", "cancelled"], "the step stopped at 20 s, though the renewal never answered")
    }

    @Test func aCommandLeftByAStoppedWorkerIsTakenOverByRunningItsKeyAgain() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let entry = CommandJournalEntry(idempotencyKey: "k", kind: "test")
        _ = try await journal.begin(entry, lease: JournalLease(owner: "stopped", duration: .seconds(30)))
        let invoker = JournaledInvoker(journal: journal, clock: clock)
        let command = ClosureCommand("note") { [trace] in trace("ran") }
        await #expect(throws: CommandJournalError.busy(key: "k", owner: "stopped")) {
            try await invoker.run(command, as: entry)
        }
        await clock.advance(by: .seconds(30))
        #expect(try await invoker.run(command, as: entry) == .executed)
        #expect(trace.lines == ["ran"])
        #expect(try await journal.record(forKey: "k")?.attempts == 2)
    }
}

/// A journal as a test scripts it: renewals that, once hung, never answer (an overloaded
/// database) or that keep no lease; claims that first wait for what the test says.
final class ScriptedJournal: CommandJournal {
    let base: any CommandJournal
    let clock: ManualClock
    private let hung = LockedValue(false)

    init(_ base: any CommandJournal, clock: ManualClock) {
        self.base = base
        self.clock = clock
    }

    private let refusing = LockedValue(false)
    private let beforeClaim = LockedValue<(@Sendable (Int) async -> Void)?>(nil)

    /// Runs `hook` with the limit of each claim before the claim.
    func beforeEachClaim(_ hook: @escaping @Sendable (Int) async -> Void) { beforeClaim.withLock { $0 = hook } }

    func hang() { hung.withLock { $0 = true } }

    /// While `on`, renewals answer that no lease was kept, as when other workers took the
    /// records over.
    func refuse(_ on: Bool) { refusing.withLock { $0 = on } }

    func renew(_ attempts: [String: Int], lease: JournalLease) async throws -> [String] {
        if hung.withLock({ $0 }) {
            try await clock.sleep(for: .seconds(3600))  // the test never gets there
        }
        if refusing.withLock({ $0 }) { return [] }
        return try await base.renew(attempts, lease: lease)
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
        if let hook = beforeClaim.withLock({ $0 }) { await hook(limit) }
        return try await base.claim(
            limit, from: queue, concurrency: concurrency, takingOverFrom: deadOwner, lease: lease)
    }
    func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration
    ) async throws
        -> CommandJournalRecord
    {
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
