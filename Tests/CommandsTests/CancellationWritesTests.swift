import Commands
import Foundation
import Testing

/// The writes of a cancellation are made once from its plan, for every journal to make in
/// order: these are what the memory, SQLite and PostgreSQL journals write.
struct CancellationWritesTests {
    let now = Date(timeIntervalSince1970: 1_000)
    let reason = CommandJournalCancellation.reason("by the operator")

    func record(kind: String = "shop.charge", owner: String? = nil, expires: Date? = nil) -> CommandJournalRecord {
        CommandJournalRecord(
            sequence: 1, entry: CommandJournalEntry(idempotencyKey: "k", kind: kind), status: .pending, owner: owner,
            leaseExpiresAt: expires, attempts: 2)
    }

    func writes(
        _ record: CommandJournalRecord, hasChildren: Bool = false, isMarked: Bool = false
    ) throws
        -> [CommandJournalCancellation.Write]
    {
        try CommandJournalCancellation.writes(
            record, hasChildren: hasChildren, isMarked: isMarked, compensates: false, reason: reason, now: now)
    }

    @Test func aWaitingCommandIsSettledFailed() throws {
        #expect(try writes(record()) == [.settleFailed(reason: reason)])
    }

    @Test func aCommandWhoseWorkerStoppedHasItsAttemptLoggedThenIsSettled() throws {
        let ended = CommandJournalAttempt(number: 2, owner: "w1", error: reason, endedAt: now)
        #expect(
            try writes(record(owner: "w1", expires: now.addingTimeInterval(-1)))
                == [.logAttempt(ended), .settleFailed(reason: reason)])
    }

    @Test func aRunningTransactionIsTakenFromItsWorkerAndMarked() throws {
        let transaction = record(kind: CommandJournalCancellation.transactionKind, owner: "w1")
        let ended = CommandJournalAttempt(number: 2, owner: "w1", error: reason, endedAt: now)
        #expect(try writes(transaction) == [.logAttempt(ended), .takeFromWorker, .mark(reason: reason)])
        // Waiting with steps done: nothing to log, still taken and marked so that a worker compensates.
        let waiting = record(kind: CommandJournalCancellation.transactionKind)
        #expect(try writes(waiting, hasChildren: true) == [.takeFromWorker, .mark(reason: reason)])
        #expect(try writes(transaction, isMarked: true) == [])
    }

    @Test func aCommandItsWorkerRunsIsRefused() {
        #expect(throws: CommandJournalError.self) {
            try writes(record(owner: "w1", expires: now.addingTimeInterval(30)))
        }
    }
}
