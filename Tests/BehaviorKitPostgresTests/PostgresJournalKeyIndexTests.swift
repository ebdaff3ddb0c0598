import Commands
import Foundation
import Testing

@testable import BehaviorKitPostgres

/// A new journal's table has one index on `key`, unique and in byte order (its key columns are
/// `COLLATE "C"`), which serves lookups by key, by parent and by prefix; a table made by an
/// earlier release keeps its two (`<table>_key_key` in the database's collation, and
/// `<table>_key_c`) and works as before.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresJournalKeyIndexTests {
    let worker = JournalLease(owner: "worker", duration: .seconds(30))

    @Test func aNewTableHasOneUniqueIndexOnKeyThatServesEveryLookup() async throws {
        let journals = try await OpenJournals("keyindex")
        let table = journals.newTable()
        let journal = try await journals.open(table: table)
        #expect(try await keyIndexes(journals, table) == ["\(table)_key_c"])
        try await exercise(journal)
        try await expectIndexedLookups(journals, table)
        await journals.closeAll()
    }

    /// A table of an earlier release keeps its two indexes on key and works; what
    /// `PostgresJournalSchema.createTable` tells an operator to run then moves it to the one,
    /// its lookups still indexed.
    @Test func aTableOfAnEarlierReleaseWorksAndAnOperatorMovesItToOneKeyIndex() async throws {
        let journals = try await OpenJournals("oldkeys")
        let table = journals.newTable()
        try await createAsEarlierReleases(journals, table)
        let journal = try await journals.open(table: table)
        #expect(try await keyIndexes(journals, table) == ["\(table)_key_c", "\(table)_key_key"])
        try await exercise(journal)
        await journal.close()
        let attempts = PostgresJournalManagementSQL.attemptsTable(table)
        let traces = PostgresJournalManagementSQL.tracesTable(table)
        try await journals.cluster.psql(
            """
            ALTER TABLE "\(table)" ALTER COLUMN key TYPE text COLLATE "C", ALTER COLUMN parent_key TYPE text COLLATE "C";
            ALTER TABLE "\(attempts)" ALTER COLUMN key TYPE text COLLATE "C";
            ALTER TABLE "\(traces)" ALTER COLUMN key TYPE text COLLATE "C";
            DROP INDEX "\(table)_key_c"; ALTER INDEX "\(table)_key_key" RENAME TO "\(table)_key_c"
            """, database: journals.database)
        let moved = try await journals.open(table: table)
        #expect(try await keyIndexes(journals, table) == ["\(table)_key_c"])
        #expect(try await moved.record(forKey: "order/1/0")?.output == [2])
        _ = try await moved.begin(entry("order/2"), lease: worker)
        let lease = JournalLease(owner: worker.owner, duration: worker.duration, token: 1)
        let step = entry("order/2/0", payload: [], parent: "order/2")
        _ = try await moved.writer.commit([.changes([.settle(step, as: .done(output: [4]))], lease)], moved.connections)
        #expect(try await moved.details(forKey: "order/2")?.children.map(\.id) == ["order/2/0"])
        try await expectIndexedLookups(journals, table)
        await journals.closeAll()
    }

    /// Lays `table` out as the releases before this one made it: every key in the database's
    /// collation, a unique constraint on key and the index in byte order beside it, and the log
    /// of attempts and the trace contexts beside them.
    func createAsEarlierReleases(_ journals: OpenJournals, _ table: String) async throws {
        let earlier = PostgresJournalColumn.allCases.map { column in
            column == .key ? "key text NOT NULL UNIQUE" : column == .parentKey ? "parent_key text" : column.definition
        }
        let attempts = PostgresJournalManagementSQL.attemptsTable(table)
        let traces = PostgresJournalManagementSQL.tracesTable(table)
        try await journals.cluster.psql(
            """
            CREATE TABLE "\(table)" (\(earlier.joined(separator: ", ")));
            CREATE INDEX "\(table)_key_c" ON "\(table)" (key COLLATE "C");
            CREATE TABLE "\(attempts)" (key text NOT NULL, attempt bigint NOT NULL, owner text, error text,
                ended_at bigint NOT NULL, PRIMARY KEY (key, attempt));
            CREATE TABLE "\(traces)" (key text PRIMARY KEY, context jsonb NOT NULL)
            """, database: journals.database)
    }

    /// Expects lookups by key, of a record's children, of its trace context and of its attempts
    /// to use their indexes.
    func expectIndexedLookups(_ journals: OpenJournals, _ table: String) async throws {
        let byKey = try await plan(journals, "SELECT * FROM \"\(table)\" WHERE key = 'order/1'")
        #expect(byKey.contains("\(table)_key_c"), "\(byKey)")
        let byParent = try await plan(
            journals, "SELECT * FROM \"\(table)\" AS c JOIN \"\(table)\" AS r ON c.parent_key = r.key WHERE r.key = 'a'"
        )
        #expect(byParent.contains("\(table)_parent"), "\(byParent)")
        let traces = PostgresJournalManagementSQL.tracesTable(table)
        let byTrace = try await plan(
            journals, "SELECT * FROM \"\(traces)\" AS c JOIN \"\(table)\" AS r ON c.key = r.key WHERE r.sequence = 1")
        #expect(byTrace.contains("\(traces)_pkey"), "\(byTrace)")
        let attempts = PostgresJournalManagementSQL.attemptsTable(table)
        let byAttempt = try await plan(
            journals, "SELECT * FROM \"\(attempts)\" AS a JOIN \"\(table)\" AS r ON a.key = r.key WHERE r.sequence = 1")
        #expect(byAttempt.contains("\(attempts)_pkey"), "\(byAttempt)")
    }

    /// The names of the indexes of `table` on its `key` column.
    func keyIndexes(_ journals: OpenJournals, _ table: String) async throws -> [String] {
        try await journals.words(
            """
            SELECT string_agg(i.indexrelid::regclass::text, ' ' ORDER BY i.indexrelid::regclass::text)
            FROM pg_index AS i JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
            WHERE i.indrelid = '"\(table)"'::regclass AND a.attname = 'key'
            """)
    }

    /// The plan of `sql` when the server may not read a whole table.
    func plan(_ journals: OpenJournals, _ sql: String) async throws -> String {
        try await journals.cluster.psql(
            "SET enable_seqscan = off; SET enable_bitmapscan = off; EXPLAIN \(sql)", database: journals.database)
    }

    /// Writes records of each kind and reads them back by key, by parent and by prefix.
    func exercise(_ journal: PostgresCommandJournal) async throws {
        _ = try await journal.begin(entry("order/1"), lease: worker)
        let lease = JournalLease(owner: worker.owner, duration: worker.duration, token: 1)
        let step = entry("order/1/0", payload: [], parent: "order/1")
        _ = try await journal.writer.commit(
            [.changes([.settle(step, as: .done(output: [2]))], lease)], journal.connections)
        _ = try await journal.enqueue(entry("job/1"), queue: "q", after: .zero)
        let claimed = try await journal.claim(1, from: "q", concurrency: nil, lease: worker).records.map(\.id)
        #expect(claimed == ["job/1"])
        try await journal.settle("job/1", as: .done(output: nil), lease: worker)
        try await journal.settle("order/1", as: .done(output: nil), lease: lease)
        #expect(try await journal.record(forKey: "order/1/0")?.output == [2])
        #expect(try await journal.details(forKey: "order/1")?.children.map(\.id) == ["order/1/0"])
        let page = try await journal.records(
            matching: CommandJournalFilter(keyPrefix: "order/", rootsOnly: false), after: nil, limit: 10)
        #expect(page.records.map(\.id) == ["order/1", "order/1/0"])
    }
}
