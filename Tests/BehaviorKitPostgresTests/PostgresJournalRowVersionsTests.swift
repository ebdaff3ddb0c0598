import Commands
import Foundation
import Testing

@testable import BehaviorKitPostgres

/// What a write costs the server in row versions: each version of a row is an entry in every
/// index of the table, so a write that needs one writes one.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresJournalRowVersionsTests {
    let worker = JournalLease(owner: "worker", duration: .seconds(30))

    /// Logs the key of every row of `table` updated from now on into `<table>_updates`.
    func logUpdates(_ journals: OpenJournals, _ table: String) async throws {
        try await journals.cluster.psql(
            """
            CREATE TABLE "\(table)_updates" (key text NOT NULL);
            CREATE FUNCTION "\(table)_log"() RETURNS trigger LANGUAGE plpgsql AS $fn$
            BEGIN INSERT INTO "\(table)_updates" VALUES (OLD.key); RETURN NEW; END $fn$;
            CREATE TRIGGER "\(table)_log" BEFORE UPDATE ON "\(table)" FOR EACH ROW EXECUTE FUNCTION "\(table)_log"()
            """, database: journals.database)
    }

    func updated(_ journals: OpenJournals, _ table: String) async throws -> [String] {
        try await journals.words("SELECT string_agg(key, ' ' ORDER BY key) FROM \"\(table)_updates\"")
    }

    /// A step that a settlement writes and settles at once (a durable transaction's step: its
    /// `changes`) is inserted settled (v12): one row version, not a pending one then its
    /// settlement; written again, it is found as before.
    @Test func aStepWrittenAndSettledAtOnceIsInsertedSettled() async throws {
        let journals = try await OpenJournals("rowversions")
        let table = journals.newTable()
        let journal = try await journals.open(table: table)
        _ = try await journal.begin(entry("o"), lease: worker)
        try await logUpdates(journals, table)
        let lease = JournalLease(owner: worker.owner, duration: worker.duration, token: 1)
        let steps: [CommandJournalChange] = [
            .settle(entry("o/0", payload: [], parent: "o"), as: .done(output: [2])),
            .settle(entry("o/1", payload: [3], parent: "o"), as: .failed(reason: "no stock")),
        ]
        let writes: [JournalWrite] = [.changes(steps, lease), .changes(steps, lease)]
        let results = await journal.writer.commit(writes, journal.connections)
        try #require(results.count == writes.count)
        for result in results { _ = try result.get() }
        let done = try await journal.record(forKey: "o/0")
        let failed = try await journal.record(forKey: "o/1")
        #expect(done?.status == .done && done?.output == [2] && done?.failureReason == nil)
        #expect(failed?.status == .failed && failed?.failureReason == "no stock" && failed?.output == nil)
        #expect(done?.entry.parentKey == "o" && failed?.entry.payload == [3])
        #expect(try await updated(journals, table).isEmpty)
        await journals.closeAll()
    }
}
