import BehaviorKitSync
import BehaviorKitTesting
import Foundation
import Testing

@testable import Commands

/// A renewal that lands while a transaction's own settlement is under way finds the record
/// settled: that is the transaction's doing, not a lost lease.
struct LeaseSettleRaceTests {
    let clock = ManualClock()

    struct Declined: Error {}

    @Test func aRenewalThatFindsTheRollbackSettledLeavesTheTransactionsError() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let gate = RootSettlementGate(journal, root: "t")
        let invoker = JournaledInvoker(journal: gate, clock: clock)
        let declined = try DurableStep(
            "test.declined", arguments: 1, command: ClosureCommand("declined") { throw Declined() })
        let order = invoker.transaction("order", key: "t", steps: [declined])
        let task = Task { try await order.run() }
        await gate.committed()  // the rollback settled "t" compensated; its answer is held back
        await clock.waitForSleepers(count: 1)
        await clock.advance(by: .seconds(5))  // the heartbeat's renewal finds "t" settled
        await gate.renewalAnswered()
        while invoker.keeper.isRenewing { await Task.yield() }  // the keeper took the answer in
        gate.answer()
        do {
            _ = try await task.value
            Issue.record("the transaction whose only step failed completed")
        } catch let error as TransactionError {
            #expect(error.failedStep?.index == 0, "\(error)")
            #expect(error.error is Declined, "\(error)")
        } catch {
            Issue.record("the transaction's own rollback was answered as \(error)")
        }
        #expect(try await journal.record(forKey: "t")?.status == .compensated)
    }

    @Test func aRenewalThatFindsACommandsFailureSettledLeavesItsError() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let gate = RootSettlementGate(journal, root: "k")
        let invoker = JournaledInvoker(journal: gate, clock: clock)
        let entry = CommandJournalEntry(idempotencyKey: "k", kind: "test")
        let task = Task { try await invoker.run(ClosureCommand("declined") { throw Declined() }, as: entry) }
        await gate.committed()  // the command's failure is written; its answer is held back
        await clock.waitForSleepers(count: 1)
        await clock.advance(by: .seconds(5))  // the heartbeat's renewal finds "k" settled
        await gate.renewalAnswered()
        while invoker.keeper.isRenewing { await Task.yield() }
        gate.answer()
        await #expect(throws: Declined.self) { _ = try await task.value }
        #expect(try await journal.record(forKey: "k")?.status == .failed)
    }

    @Test func aLeaseThatLapsesWhileTheRollbackSettlesLeavesTheTransactionsError() async throws {
        let journal = InMemoryCommandJournal(clock: clock)
        let gate = RootSettlementGate(journal, root: "t", renewalsWait: true)
        let invoker = JournaledInvoker(journal: gate, clock: clock)
        let declined = try DurableStep(
            "test.declined", arguments: 1, command: ClosureCommand("declined") { throw Declined() })
        let order = invoker.transaction("order", key: "t", steps: [declined])
        let task = Task { try await order.run() }
        await gate.committed()  // the rollback settled "t" compensated; its answer is held back
        // 20 s on: two thirds of the lease unconfirmed (the renewal sent at 5 s has no answer).
        for _ in 0..<4 {
            await clock.waitForSleepers(count: 1)
            await clock.advance(by: .seconds(5))
        }
        await clock.waitForSleepers(count: 1)  // the heartbeat looked at the lease, and sleeps again
        gate.answer()
        do {
            _ = try await task.value
            Issue.record("the transaction whose only step failed completed")
        } catch let error as TransactionError {
            #expect(error.error is Declined, "\(error)")
        } catch {
            Issue.record("the transaction's own rollback was answered as \(error)")
        }
    }
}

/// A journal that holds back the answer to the write that settles `root`, after it committed,
/// until ``answer()`` (and every renewal too, when `renewalsWait`); and says when a renewal was
/// answered.
final class RootSettlementGate: CommandJournal {
    let base: any CommandJournal
    let root: String
    let renewalsWait: Bool
    private let settledSignal = AsyncSignal()
    private let answerSignal = AsyncSignal()
    private let renewedSignal = AsyncSignal()

    init(_ base: any CommandJournal, root: String, renewalsWait: Bool = false) {
        self.base = base
        self.root = root
        self.renewalsWait = renewalsWait
    }

    func committed() async { await settledSignal.wait() }
    func renewalAnswered() async { await renewedSignal.wait() }
    func answer() { answerSignal.fire() }

    func settle(_ changes: [CommandJournalChange], lease: JournalLease) async throws {
        try await base.settle(changes, lease: lease)
        guard changes.contains(where: { $0.key == root }) else { return }
        settledSignal.fire()
        await answerSignal.wait()
    }
    func settle(_ key: String, as settlement: CommandJournalSettlement, lease: JournalLease) async throws {
        try await base.settle(key, as: settlement, lease: lease)
        guard key == root else { return }
        settledSignal.fire()
        await answerSignal.wait()
    }
    func renew(_ attempts: [String: Int], lease: JournalLease) async throws -> [String] {
        if renewalsWait { await answerSignal.wait() }
        let kept = try await base.renew(attempts, lease: lease)
        renewedSignal.fire()
        return kept
    }
    func begin(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalBegin {
        try await base.begin(entry, lease: lease)
    }
    func append(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalRecord {
        try await base.append(entry, lease: lease)
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

/// A one-shot signal: ``wait()`` returns once ``fire()`` was called, before or after.
final class AsyncSignal: Sendable {
    private let state = LockedValue<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fired = state.withLock { state -> Bool in
                if !state.fired { state.waiters.append(continuation) }
                return state.fired
            }
            if fired { continuation.resume() }
        }
    }
}
