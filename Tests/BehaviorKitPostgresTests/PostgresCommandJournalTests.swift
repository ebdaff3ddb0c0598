import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

@testable import BehaviorKitPostgres

@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresCommandJournalTests {
    let stopped = JournalLease(owner: "stopped", duration: .zero)
    let worker = JournalLease(owner: "worker", duration: .seconds(30))

    /// As the guide shows it (GettingStarted.md, "Test with it"), closing the journals after; with
    /// patient timeouts (``patientReconnection``).
    @Test func conforms() async throws {
        let journals = try await OpenJournals("conformance")
        let url = patient(journals.url)
        let opened = LockedValue<[PostgresCommandJournal]>([])
        var tables = 0  // a new table for every check
        try await CommandJournalConformance.check { clock in
            tables += 1
            let journal = try await PostgresCommandJournal(
                url: url, table: "conformance_\(tables)", clock: clock, reconnection: patientReconnection)
            opened.withLock { $0.append(journal) }
            return journal
        }
        for journal in opened.withLock({ $0 }) { await journal.close() }
    }

    @Test func twoJournalsOnOneTableShareARateLimit() async throws {
        let journals = try await OpenJournals("sharedrate")
        let table = journals.newTable()
        try await CommandJournalConformance.checkSharedRateLimits { clock in
            (try await journals.open(table: table, clock: clock), try await journals.open(table: table, clock: clock))
        }
        await journals.closeAll()
    }

    @Test func withoutAClockLeasesFollowTheServersClock() async throws {
        let journals = try await OpenJournals("serverclock")
        let journal = try await journals.open()
        let before = Date().addingTimeInterval(-5)
        let record = try await journal.begin(entry("k"), lease: worker).record
        let after = Date().addingTimeInterval(5)
        #expect(record.createdAt > before && record.createdAt < after)
        #expect(record.leaseExpiresAt == record.createdAt.addingTimeInterval(30))
        let stored = try #require(try await journal.record(forKey: "k"))
        #expect(stored == record)
        await journals.closeAll()
    }

    @Test func writesArrivingTogetherShareTransactions() async throws {
        let journals = try await OpenJournals("groupcommit")
        let journal = try await journals.open()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 { group.addTask { _ = try await journal.begin(entry("k\(index)"), lease: worker) } }
            try await group.waitForAll()
        }
        let counts = journal.writes.counts
        #expect(counts.operations == 200)
        #expect(counts.batches < 100, "200 concurrent writes took \(counts.batches) transactions")
        #expect(try await journal.unfinished().count == 200)
        await journals.closeAll()
    }

    @Test func aCallersRefusalDoesNotUndoTheOthersWrites() async throws {
        let journals = try await OpenJournals("isolation")
        let journal = try await journals.open()
        _ = try await journal.begin(entry("taken", payload: [1]), lease: worker)
        let results = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
            for index in 0..<40 {
                group.addTask {
                    switch index % 4 {
                    case 0:  // a conflicting entry
                        let failed = (try? await journal.begin(entry("taken", payload: [2]), lease: worker)) == nil
                        return ("conflict", failed)
                    case 1:  // a settlement by a worker that holds nothing
                        let failed = (try? await journal.settle("taken", as: .done(output: nil), lease: stopped)) == nil
                        return ("leaseLost", failed)
                    case 2:  // a key too long for the server's index: the server refuses it
                        let failed = (try? await journal.begin(entry(incompressible(index)), lease: worker)) == nil
                        return ("refused", failed)
                    default:
                        _ = try await journal.begin(entry("good\(index)"), lease: worker)
                        return ("good", false)
                    }
                }
            }
            return try await group.reduce(into: [(String, Bool)]()) { $0.append($1) }
        }
        let refusals = results.filter { $0.0 != "good" }
        #expect(refusals.count == 30 && refusals.allSatisfy { $0.1 }, "\(results)")
        let good = try await journal.allRecords().map(\.id).filter { $0.hasPrefix("good") }
        #expect(good.count == 10)
        await journals.closeAll()
    }

    /// 8,000 letters that do not compress: more than a btree index entry can hold.
    func incompressible(_ seed: Int) -> String {
        var state = UInt64(seed) &+ 0x9E37_79B9_7F4A_7C15
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String(
            (0..<8_000).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return letters[Int((state >> 33) % UInt64(letters.count))]
            })
    }

    @Test func aValueTheServerRefusesFailsOnlyItsCaller() async throws {
        let journals = try await OpenJournals("toolong")
        let journal = try await journals.open()
        do {
            _ = try await journal.begin(entry(incompressible(1)), lease: worker)
            Issue.record("a key longer than an index entry was stored")
        } catch let error as PostgresStoreError {
            #expect(error.code == .queryFailed)
            #expect("\(error)".contains("54000"), "\(error)")
        }
        await journals.closeAll()
    }

    @Test func aKeyTheServerCannotKeepGetsAClearErrorBeforeItIsSent() async throws {
        let journals = try await OpenJournals("refused")
        let journal = try await journals.open()
        do {
            _ = try await journal.begin(entry("bad\u{0}key"), lease: worker)
            Issue.record("a key holding a NUL was stored")
        } catch let error as InvalidKeyError {
            // The rule every store applies (StoredKey), the same error as SQLite's and memory's.
            #expect(error.problem == .nul(utf8Offset: 3) && error.role == "idempotency key")
            #expect("\(error)".contains("\"bad\\0key\" holds a NUL character"), "\(error)")
        }
        #expect(try await journal.allRecords().isEmpty)
        await journals.closeAll()
    }

    @Test func recordsSurviveReopeningAndAKeyIsStoredOnce() async throws {
        let journals = try await OpenJournals("reopen")
        let table = journals.newTable()
        let first = try await journals.open(table: table)
        let record = try await first.begin(entry("order-1"), lease: stopped).record
        await first.close()
        let reopened = try await journals.open(table: table)
        #expect(try await reopened.enqueue(entry("order-1"), queue: "q", after: .zero) == record)
        await #expect(throws: CommandJournalError.conflictingEntry(key: "order-1")) {
            _ = try await reopened.begin(entry("order-1", payload: [9]), lease: stopped)
        }
        guard case .resumed(let resumed) = try await reopened.begin(entry("order-1"), lease: worker) else {
            Issue.record("an expired record was not taken over")
            return
        }
        #expect(resumed.attempts == 2 && resumed.owner == worker.owner)
        await journals.closeAll()
    }

    @Test func aRoleThatOwnsNothingOpensAJournalAnotherRoleMade() async throws {
        let journals = try await OpenJournals("roles")
        let table = journals.newTable()
        let made = try await journals.open(table: table)
        _ = try await made.begin(entry("k"), lease: worker)
        try await journals.cluster.psql(
            "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'journal_worker') THEN "
                + "CREATE ROLE journal_worker LOGIN; END IF; END $$", database: journals.database)
        try await journals.cluster.psql(
            "GRANT SELECT, INSERT, UPDATE, DELETE ON \"\(table)\" TO journal_worker", database: journals.database)
        let url = journals.url.replacingOccurrences(of: "postgres://postgres@", with: "postgres://journal_worker@")
        let other = try await PostgresCommandJournal(url: url, table: table)
        #expect(try await other.record(forKey: "k")?.owner == worker.owner)
        try await other.settle("k", as: .done(output: nil), lease: worker)
        #expect(try await made.record(forKey: "k")?.status == .done)
        await other.close()
        await journals.closeAll()
    }

    /// A write commits in its caller's task when nothing else commits, and does not follow that
    /// task into cancellation: a caller cancelled before it writes still gets its answer, and the
    /// write is made, as when the group commit's own task wrote it.
    @Test func aLoneWriteOfACancelledTaskCommitsAndAnswers() async throws {
        let journals = try await OpenJournals("cancelled")
        let journal = try await journals.open()
        let enqueued = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await journal.enqueue(
                CommandJournalEntry(idempotencyKey: "c", kind: "k", payload: [1]), queue: "q", after: .zero)
        }
        let record = try await enqueued.value
        #expect(record.entry.idempotencyKey == "c")
        let started = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await journal.begin(
                CommandJournalEntry(idempotencyKey: "t", kind: "k", payload: []), lease: worker)
        }
        guard case .started = try await started.value else {
            Issue.record("a cancelled caller's begin did not start")
            return
        }
        #expect(try await journal.record(forKey: "c")?.status == .pending)
        #expect(try await journal.record(forKey: "t")?.owner == worker.owner)
        await journals.closeAll()
    }

    @Test func aQueueWorkerDrainsAQueueOnPostgres() async throws {
        let journals = try await OpenJournals("worker")
        let journal = try await journals.open()
        var registry = CommandRegistry()
        let ran = LockedValue<[Int]>([])
        registry.register("note", arguments: Int.self) { number in
            ClosureCommand("note \(number)", execute: { ran.withLock { $0.append(number) } })
        }
        let queue = CommandQueue("notes", journal: journal, concurrency: 4)
        for number in 0..<30 { try await queue.enqueue(kind: "note", arguments: number, key: "note-\(number)") }
        let invoker = JournaledInvoker(journal: journal, registry: registry)
        let settled = try await QueueWorker(queue, invoker: invoker, slots: 8).runDue()
        #expect(settled == 30)
        #expect(ran.withLock { $0.sorted() } == Array(0..<30))
        #expect(try await journal.unfinished().isEmpty)
        await journals.closeAll()
    }
}
