import Commands
import Foundation
import Testing

@testable import BehaviorKitPostgres

/// The batch function's versions and its refusal of a malformed call.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresJournalBatchFunctionTests {
    let worker = JournalLease(owner: "worker", duration: .seconds(30))

    func functions(_ journals: OpenJournals, _ table: String) async throws -> [String] {
        try await journals.words(
            "SELECT string_agg(p.oid::regprocedure::text, ' ' ORDER BY p.proname) FROM pg_proc AS p "
                + "WHERE p.proname LIKE '\(table)_batch_v%'")
    }

    @Test func aDatabaseWithAnEarlierVersionGetsTheCurrentOneBesideIt() async throws {
        let journals = try await OpenJournals("versions")
        let table = journals.newTable()
        let first = try await journals.open(table: table)
        _ = try await first.begin(entry("k"), lease: worker)
        await first.close()
        // As an earlier release left it: its own versions of the function, not this one, no
        // tables of rate limits (the releases before v9), no pickups (before v10), its settlements
        // one by one (before v11), its steps inserted pending, then settled (before v12), and no
        // begin tokens (before v13).
        let earlier: [String] = [
            "DROP FUNCTION \"\(table)_batch_v13\"",
            "CREATE FUNCTION \"\(table)_batch_v3\"(p_now bigint, p_ops jsonb) RETURNS bigint LANGUAGE sql AS 'SELECT 3::bigint'",
            "CREATE FUNCTION \"\(table)_batch_v8\"(p_now bigint) RETURNS bigint LANGUAGE sql AS 'SELECT 8::bigint'",
            "CREATE FUNCTION \"\(table)_batch_v10\"(p_now bigint) RETURNS bigint LANGUAGE sql AS 'SELECT 10::bigint'",
            "CREATE FUNCTION \"\(table)_batch_v11\"(p_now bigint) RETURNS bigint LANGUAGE sql AS 'SELECT 11::bigint'",
            "DROP TABLE \"\(table)_rate_limits\"", "DROP TABLE \"\(table)_rate_buckets\"",
            "ALTER TABLE \"\(table)\" DROP COLUMN pickup_ms, DROP COLUMN begin_token",
        ]
        try await journals.cluster.psql(earlier.joined(separator: "; "), database: journals.database)
        #expect(try await functions(journals, table).count == 4)
        let reopened = try await journals.open(table: table)
        try await reopened.settle("k", as: .done(output: [7]), lease: worker)
        #expect(try await reopened.record(forKey: "k")?.output == [7])
        let present = try await functions(journals, table)
        #expect(present.contains("\(table)_batch_v3(bigint,jsonb)"), "\(present)")
        #expect(present.contains("\(table)_batch_v8(bigint)"), "\(present)")
        #expect(present.contains("\(table)_batch_v10(bigint)"), "\(present)")
        #expect(present.contains("\(table)_batch_v11(bigint)"), "\(present)")
        #expect(present.contains { $0.hasPrefix("\(table)_batch_v13(bigint,smallint[],text[]") }, "\(present)")
        let limit = try QueueRateLimit(starts: 1, per: .seconds(60))
        try await reopened.setRateLimit(limit, queue: "q", scope: .queue)
        #expect(try await reopened.rateLimits().map(\.limit) == [limit])
        // The column of pickups is back: a record claimed from its queue keeps its pickup.
        _ = try await reopened.enqueue(entry("p"), queue: "p", after: .zero)
        #expect(try await reopened.claim(1, from: "p", concurrency: nil, lease: worker).records.map(\.id) == ["p"])
        try await reopened.settle("p", as: .done(output: nil), lease: worker)
        #expect(try await reopened.activity(since: .distantPast).first { $0.queue == "p" }?.pickups == 1)
        await journals.closeAll()
    }

    /// Renewals' attempts and settlements' changes are flattened into arrays of their own: in
    /// one call, each write keeps its own, whatever writes come between.
    @Test func oneCallKeepsEachWritesAttemptsAndChangesApart() async throws {
        let journals = try await OpenJournals("flattened")
        let journal = try await journals.open()
        for key in ["a", "b", "c"] { _ = try await journal.begin(entry(key), lease: worker) }
        let first = JournalLease(owner: worker.owner, duration: worker.duration, token: 1)
        let stale = JournalLease(owner: worker.owner, duration: worker.duration, token: 2)
        let writes: [JournalWrite] = [
            .renew(["a": 1, "b": 1], worker),
            .changes([.settle("a", as: .done(output: [1]))], first),
            .renew(["c": 1, "b": 2], worker),
            .changes(
                [
                    .settle(entry("b/0", payload: [], parent: "b"), as: .done(output: [2])),
                    .settle("b", as: .done(output: nil)),
                ], first),
            .changes([.settle("c", as: .failed(reason: "stale"))], stale),
            .renew([:], worker),
            .begin(entry("d"), worker),
        ]
        let results = await journal.writer.commit(writes, journal.connections)
        try #require(results.count == writes.count)
        guard case .keys(let renewed) = try results[0].get(), case .keys(let renewedAgain) = try results[2].get(),
            case .keys(let none) = try results[5].get(), case .begun(.started) = try results[6].get()
        else {
            Issue.record("unexpected outcomes: \(results)")
            return
        }
        #expect(renewed == ["a", "b"] && renewedAgain == ["c"] && none.isEmpty)
        _ = try results[1].get()
        _ = try results[3].get()
        #expect(throws: CommandJournalError.leaseLost(key: "c", owner: worker.owner)) { try results[4].get() }
        #expect(try await journal.record(forKey: "a")?.output == [1])
        #expect(try await journal.record(forKey: "b/0")?.output == [2])
        #expect(try await journal.record(forKey: "b")?.status == .done)
        #expect(try await journal.record(forKey: "c")?.status == .pending)
        await journals.closeAll()
    }

    /// Settlements next to each other in one call are settled in one statement (v11); each is
    /// answered, and leaves its record, as one by one in the call's order.
    @Test func settlementsNextToEachOtherAnswerAsOneByOne() async throws {
        let journals = try await OpenJournals("settleruns")
        let journal = try await journals.open()
        for key in ["a", "b", "c", "d", "e", "p", "q"] { _ = try await journal.begin(entry(key), lease: worker) }
        let first = JournalLease(owner: worker.owner, duration: worker.duration, token: 1)
        for child in ["p/0", "q/0"] {
            _ = try await journal.append(entry(child, payload: [], parent: String(child.prefix(1))), lease: first)
        }
        try await journal.settle("e", as: .done(output: nil), lease: first)
        let other = JournalLease(owner: "other", duration: worker.duration)
        let stale = JournalLease(owner: worker.owner, duration: worker.duration, token: 2)
        let writes: [JournalWrite] = [
            .settle("a", .done(output: [1]), first),
            .settle("a", .done(output: [9]), first),  // settled a moment ago: the same
            .settle("b", .failed(reason: "x"), other),
            .settle("c", .done(output: nil), stale),
            .settle("none", .done(output: nil), first),
            .settle("p/0", .done(output: [2]), first),  // a child before its root: both settle
            .settle("p", .done(output: nil), first),
            .settle("d", .done(output: nil), first),
            .settle("d", .failed(reason: "late"), first),  // settled otherwise a moment ago
            .settle("q", .done(output: nil), first),
            .settle("q/0", .done(output: nil), first),  // a child after its root: lost
            .settle("e", .done(output: nil), first),
        ]
        let results = await journal.writer.commit(writes, journal.connections)
        try #require(results.count == writes.count)
        for index in [0, 1, 5, 6, 7, 9, 11] { _ = try results[index].get() }
        #expect(throws: CommandJournalError.leaseLost(key: "b", owner: worker.owner)) { try results[2].get() }
        #expect(throws: CommandJournalError.leaseLost(key: "c", owner: worker.owner)) { try results[3].get() }
        #expect(throws: CommandJournalError.unknownKey("none")) { try results[4].get() }
        #expect(throws: CommandJournalError.leaseLost(key: "d", owner: worker.owner)) { try results[8].get() }
        #expect(throws: CommandJournalError.leaseLost(key: "q", owner: worker.owner)) { try results[10].get() }
        var records: [CommandJournalRecord?] = []
        for key in ["a", "b", "c", "d", "p", "p/0", "q", "q/0"] {
            records.append(try await journal.record(forKey: key))
        }
        #expect(records.map(\.?.status) == [.done, .pending, .pending, .done, .done, .done, .done, .pending])
        #expect(records[0]?.output == [1] && records[5]?.output == [2])
        await journals.closeAll()
    }

    @Test func arraysOfDifferentLengthsAreRefusedAndChangeNothing() async throws {
        let journals = try await OpenJournals("malformed")
        let table = journals.newTable()
        _ = try await journals.open(table: table)
        let arguments = PostgresJournalBatchParameter.allCases.map { parameter -> String in
            switch parameter {
            case .ops: "'{1}'::smallint[]"  // a begin with no key, no kind, no owner: lengths differ
            case .keys: "'{k}'::text[]"
            default: "NULL::\(parameter.type)"
            }
        }
        do {
            try await journals.cluster.psql(
                "SELECT * FROM \"\(PostgresJournalBatchFunction.name(table))\"(\(arguments.joined(separator: ", ")))",
                database: journals.database)
            Issue.record("a call whose arrays differ in length was run")
        } catch {
            #expect("\(error)".contains("the batch's arrays differ in length"), "\(error)")
        }
        let count = try await journals.cluster.psql("SELECT count(*) FROM \"\(table)\"", database: journals.database)
        #expect(count.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        await journals.closeAll()
    }
}
