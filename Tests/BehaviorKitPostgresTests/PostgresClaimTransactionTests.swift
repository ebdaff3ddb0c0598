import BehaviorKitSync
import Commands
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import BehaviorKitPostgres

/// A batch of begins, claims, renewals, enqueues, appends and settlements (a transaction's too) is one statement in
/// its own implicit transaction (one round trip): its commit may be lost without harm (each answers the
/// same when run again), so its fate is not asked. Every other write (a release here) keeps its
/// transaction (`BEGIN`, the batch, `COMMIT`), whose fate is asked after a lost connection.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresClaimTransactionTests {
    let worker = JournalLease(owner: "worker", duration: .seconds(30))

    @Test func beginsClaimsRenewalsEnqueuesAppendsAndSettlementsRunAloneAndAReleaseInItsTransaction() async throws {
        let journals = try await OpenJournals("claimalone")
        // The server logs every statement of the journal's connections, opened after this.
        try await journals.cluster.psql(
            "ALTER DATABASE \"\(journals.database)\" SET log_statement = 'all'", database: journals.database)
        let table = journals.newTable()
        let journal = try await journals.open(table: table)
        for key in ["a", "b"] {
            _ = try await journal.enqueue(
                CommandJournalEntry(idempotencyKey: key, kind: "k", payload: []), queue: "q", after: .zero)
        }
        _ = try await journal.begin(CommandJournalEntry(idempotencyKey: "t", kind: "k", payload: []), lease: worker)
        let claim = try await journal.claim(2, from: "q", concurrency: nil, lease: worker)
        #expect(claim.records.map(\.entry.idempotencyKey).sorted() == ["a", "b"])
        let attempts = Dictionary(uniqueKeysWithValues: claim.records.map { ($0.entry.idempotencyKey, $0.attempts) })
        #expect(try await journal.renew(attempts, lease: worker).sorted() == ["a", "b"])
        var step = CommandJournalEntry(idempotencyKey: "t/1", kind: "k", payload: [])
        step.parentKey = "t"
        _ = try await journal.append(step, lease: worker)
        try await journal.settle("a", as: .done(output: nil), lease: worker)
        try await journal.settle(
            [.settle("t/1", as: .done(output: nil)), .settle("t", as: .done(output: nil))], lease: worker)
        try await journal.release("b", lease: worker, after: .zero)
        await journals.closeAll()

        // What the backends that ran the table's batch were sent, in order.
        let log = try String(contentsOfFile: "\(journals.cluster.folder)/log", encoding: .utf8)
        let lines = log.split(separator: "\n").map(String.init)
        let call = PostgresJournalBatchFunction.call(table)
        func backend(_ line: String) -> Substring? {
            guard let open = line.firstIndex(of: "["), let close = line[open...].firstIndex(of: "]") else { return nil }
            return line[open..<close]
        }
        let backends = Set(lines.filter { $0.contains(call) }.compactMap(backend))
        let sent: [String] = lines.compactMap { line in
            guard let backend = backend(line), backends.contains(backend) else { return nil }
            if line.hasSuffix(": BEGIN") { return "BEGIN" }
            if line.hasSuffix(": COMMIT") { return "COMMIT" }
            return line.contains(call) ? "batch" : nil
        }
        #expect(
            Array(sent.suffix(10)) == [
                "batch", "batch", "batch", "batch", "batch", "batch", "batch", "BEGIN", "batch", "COMMIT",
            ],
            "\(sent)")
    }

    /// A write whose statement committed but whose answer was lost runs again, unasked, and
    /// answers as its first run would have: an enqueue and an append the record the first wrote,
    /// a settlement and a transaction's settlements (with the step they write) their success;
    /// each record written once.
    @Test func aWriteLostAfterItCommittedRunsAgainAndAnswersAsTheFirstRun() async throws {
        let journals = try await OpenJournals("writelost")
        let journal = try await journals.open()
        let entry = { (key: String) in CommandJournalEntry(idempotencyKey: key, kind: "k", payload: [7]) }
        let enqueue = JournalWrite.enqueue(
            entry("job"), queue: "q", after: .zero, priority: 0, partition: nil, traceContext: nil)
        let (enqueued, enqueuedAgain) = try await lostAfterCommit(enqueue, journals, journal)
        guard case .record(let first) = enqueued, case .record(let again) = enqueuedAgain else {
            Issue.record("an enqueue answered \(enqueued), then \(enqueuedAgain)")
            return
        }
        #expect(again.sequence == first.sequence && again.entry == first.entry && again.status == .pending)

        _ = try await journal.begin(entry("t"), lease: worker)
        var step = entry("t/1")
        step.parentKey = "t"
        let (appended, appendedAgain) = try await lostAfterCommit(.append(step, worker), journals, journal)
        guard case .record(let child) = appended, case .record(let childAgain) = appendedAgain else {
            Issue.record("an append answered \(appended), then \(appendedAgain)")
            return
        }
        #expect(childAgain.sequence == child.sequence && childAgain.entry == step)

        let claim = try await journal.claim(1, from: "q", concurrency: nil, lease: worker)
        let attempt = try #require(claim.records.first?.attempts)
        let settle = JournalWrite.settle(
            "job", .done(output: [1]), JournalLease(owner: worker.owner, duration: worker.duration, token: attempt))
        let (settled, settledAgain) = try await lostAfterCommit(settle, journals, journal)
        guard case .none = settled, case .none = settledAgain else {
            Issue.record("a settlement answered \(settled), then \(settledAgain)")
            return
        }
        #expect(try await journal.record(forKey: "job")?.status == .done)

        var last = entry("t/2")
        last.parentKey = "t"
        let changes = JournalWrite.changes(
            [
                .settle("t/1", as: .done(output: nil)), .settle(last, as: .done(output: [2])),
                .settle("t", as: .done(output: nil)),
            ],
            worker)
        let (committed, committedAgain) = try await lostAfterCommit(changes, journals, journal)
        guard case .none = committed, case .none = committedAgain else {
            Issue.record("a transaction's settlements answered \(committed), then \(committedAgain)")
            return
        }
        #expect(try await journal.record(forKey: "t")?.status == .done)
        #expect(try await journal.record(forKey: "t/2")?.output == [2])
        let count = try await journals.cluster.psql(
            "SELECT count(*) FROM \"\(journal.table)\" WHERE key IN ('job', 't/1', 't/2')", database: journals.database)
        #expect(count.trimmingCharacters(in: .whitespacesAndNewlines) == "3")
        await journals.closeAll()
    }

    /// A begin whose statement committed but whose answer was lost runs again with the same
    /// token, and answers as its first run did: `started` for the record it made, `resumed` (the
    /// same attempt, not the next) for one that was there; another begin by the same owner, with
    /// a token of its own, finds the record busy.
    @Test func aBeginLostAfterItCommittedRunsAgainAndAnswersAsItsFirstRun() async throws {
        let journals = try await OpenJournals("beginlost")
        let journal = try await journals.open()
        let entry = { (key: String) in CommandJournalEntry(idempotencyKey: key, kind: "k", payload: [7]) }
        let (started, startedAgain) = try await lostAfterCommit(.begin(entry("new"), worker), journals, journal)
        guard case .begun(.started(let first)) = started, case .begun(.started(let again)) = startedAgain else {
            Issue.record("a begin answered \(started), then \(startedAgain)")
            return
        }
        #expect(first.attempts == 1 && again.attempts == 1 && again.sequence == first.sequence)
        guard case .busy = try await journal.begin(entry("new"), lease: worker) else {
            Issue.record("another begin by the same owner took the record")
            return
        }

        _ = try await journal.enqueue(entry("queued"), queue: "q", after: .zero)
        let (resumed, resumedAgain) = try await lostAfterCommit(
            .beginOnQueue(entry("queued"), queue: "q", worker), journals, journal)
        guard case .begun(.resumed(let taken)) = resumed, case .begun(.resumed(let takenAgain)) = resumedAgain else {
            Issue.record("a begin of a queued record answered \(resumed), then \(resumedAgain)")
            return
        }
        #expect(taken.attempts == 1 && takenAgain.attempts == 1 && takenAgain.owner == worker.owner)
        #expect(try await journal.record(forKey: "queued")?.attempts == 1, "the second run took no attempt more")
        await journals.closeAll()
    }

    /// Runs `write` alone as the journal does (`losable`), losing the first run's connection after
    /// its statement committed; the first run's answer and the answer the caller got.
    private func lostAfterCommit(
        _ write: JournalWrite, _ journals: OpenJournals, _ journal: PostgresCommandJournal
    ) async throws -> (first: JournalWriteOutcome, again: JournalWriteOutcome) {
        #expect(write.isLosable)
        let writer = journal.writer
        let runs = LockedValue<[JournalWriteOutcome]>([])
        let bindings = try writer.bindings([write])  // once for every run, as `commit` binds them
        let answer = try await journals.losingTheFirstConnection(of: journal) { connection, _ in
            let answers = try await writer.call(1, bindings, on: connection, .alone).value
            let outcome = try writer.result(of: write, answers[0])
            runs.withLock { $0.append(outcome) }
            return outcome
        }
        let seen = runs.withLock { $0 }
        #expect(seen.count == 2, "the lost run ran again")
        return (try #require(seen.first), answer)
    }
}
