import BehaviorKitPostgres
import Commands
import Foundation
import Testing

/// Errors name the server, the database and the table. These need no server, so they run
/// everywhere. The refusals wait up to a minute (`connect_timeout=60`), so that a busy machine
/// cannot turn the pool's own failure into a time-out: the reason is what they check.
struct PostgresJournalErrorTests {
    @Test func theJournalAndTheMachineStoreThrowOneErrorTypeThatNamesThePart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bk-nopg-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let url = "postgres://nobody@localhost/orders?host=\(folder)&connect_timeout=60"
        let journalError = await #expect(throws: PostgresStoreError.self) {
            _ = try await PostgresCommandJournal(url: url)
        }
        let storeError = await #expect(throws: PostgresStoreError.self) {
            _ = try await PostgresMachineStore(url: url)
        }
        #expect(journalError?.code == .cannotConnect && storeError?.code == .cannotConnect)
        #expect(journalError?.part == .commandJournal && storeError?.part == .machineStore)
        #expect(
            "\(journalError.map { "\($0)" } ?? "")".hasPrefix("PostgreSQL command journal behaviorkit_command_journal"))
        #expect("\(storeError.map { "\($0)" } ?? "")".hasPrefix("PostgreSQL machine store behaviorkit_machine"))
        // The machine store's earlier word for a bad prefix is the same code.
        let prefix = PostgresStoreError(
            code: .invalidTablePrefix, server: "s", database: "d", tablePrefix: "1x", reason: "r")
        #expect(prefix.code == .invalidTableName && prefix.tablePrefix == "1x")
        #expect("\(prefix)" == "PostgreSQL machine store 1x in database d on s: invalid table prefix (r)")
    }

    @Test func aSocketWithNoServerIsRefusedNamingServerDatabaseAndTable() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bk-nopg-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            _ = try await PostgresCommandJournal(
                url: "postgres://app@/orders?host=\(folder)&connect_timeout=60", table: "jobs")
            Issue.record("a journal opened with no server")
        } catch {
            #expect(error.code == .cannotConnect)
            #expect(error.server == "\(folder)/.s.PGSQL.5432")
            #expect(error.database == "orders" && error.table == "jobs")
            let text = "\(error)"
            #expect(text.contains(folder) && text.contains("orders") && text.contains("jobs"), "\(text)")
            // The pool's own failure, read from its log: not a timeout after waiting for a connection.
            #expect(text.contains("no such socket: no server is running there"), "\(text)")
        }
    }

    @Test func aClosedPortIsRefusedNamingIt() async throws {
        do {
            _ = try await PostgresCommandJournal(
                url: "postgres://app@127.0.0.1:1/orders?sslmode=disable&connect_timeout=60")
            Issue.record("a journal opened with no server")
        } catch {
            #expect(error.code == .cannotConnect)
            #expect(error.server == "127.0.0.1:1" && error.table == PostgresCommandJournal.defaultTable)
            #expect("\(error)".contains("connection refused"), "\(error)")
        }
    }

    @Test(arguments: ["", "1jobs", "jobs; DROP TABLE x", "jobs-2", "\"jobs\"", String(repeating: "j", count: 49)])
    func aBadTableNameIsRefusedBeforeConnecting(table: String) async throws {
        do {
            _ = try await PostgresCommandJournal(url: "postgres://app@127.0.0.1:1/orders", table: table)
            Issue.record("the table name '\(table)' was accepted")
        } catch {
            #expect(error.code == .invalidTableName)
            #expect("\(error)".contains("'\(table)' is not a table name"), "\(error)")
        }
    }

    @Test(arguments: [
        ("mysql://app@db/orders", "starts with postgres://"),
        ("postgres://app@db:99999/orders", "the port '99999'"),
        ("postgres://app@db/orders?pool=3", "unknown parameter 'pool'"),
        ("postgres://app@db/orders?sslmode=maybe", "sslmode 'maybe'"),
        ("postgres://app@a,b/orders", "several hosts"),
        ("postgres://app@db/orders?connect_timeout=soon", "connect_timeout 'soon'"),
    ])
    func aBadURLIsRefusedNamingTheProblem(url: String, problem: String) async throws {
        do {
            _ = try await PostgresCommandJournal(url: url)
            Issue.record("the URL \(url) was accepted")
        } catch {
            #expect(error.code == .invalidURL)
            #expect("\(error)".contains(problem), "\(error)")
        }
    }

    @Test func aURLsPasswordNeverShowsInAnError() async throws {
        do {
            _ = try await PostgresCommandJournal(url: "postgres://app:s3cret@db/orders?password=other&pool=1")
            Issue.record("the URL was accepted")
        } catch {
            #expect(!"\(error)".contains("s3cret") && !"\(error)".contains("other"), "\(error)")
            #expect("\(error)".contains("postgres://app:***@db/orders"), "\(error)")
        }
    }

    @Test func theDescriptionNamesEverything() {
        let error = PostgresStoreError(
            code: .notAJournal, server: "db:5432", database: "orders", table: "jobs", reason: "missing columns: key")
        #expect(
            "\(error)"
                == "PostgreSQL command journal jobs in database orders on db:5432: the table is not a command journal; "
                + "it is left as it is (missing columns: key)")
    }
}

/// Errors from a real server.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresJournalServerErrorTests {
    /// A later release adds columns (with defaults): a process of this one opens the table all the
    /// same and works on it, as it must during a rolling deploy or after a rollback. (The release
    /// before priorities refused such a table, "unexpected columns: priority".)
    @Test func aJournalWithALaterReleasesColumnOpensAndWorks() async throws {
        let journals = try await OpenJournals("laterrelease")
        let table = journals.newTable()
        _ = try await journals.open(table: table)
        _ = try await journals.cluster.psql(
            "ALTER TABLE \"\(table)\" ADD COLUMN later_release text NOT NULL DEFAULT 'x'", database: journals.database)
        let journal = try await journals.open(table: table)
        _ = try await journal.enqueue(CommandJournalEntry(idempotencyKey: "k", kind: "test"), queue: "q", after: .zero)
        let lease = JournalLease(owner: "w", duration: .seconds(30))
        let claimed = try await journal.claim(10, from: "q", concurrency: nil, lease: lease).records
        #expect(claimed.map(\.id) == ["k"])
        await journals.closeAll()
    }

    @Test func aTableWithOtherColumnsIsRefusedAndLeftAsItIs() async throws {
        let journals = try await OpenJournals("notajournal")
        let database = journals.database
        try await journals.cluster.psql(
            "CREATE TABLE jobs (id serial PRIMARY KEY, key text, name text)", database: database)
        try await journals.cluster.psql("INSERT INTO jobs (key, name) VALUES ('a', 'keep me')", database: database)
        do {
            _ = try await journals.open(table: "jobs")
            Issue.record("a table with other columns was taken for a journal")
        } catch let error as PostgresStoreError {
            #expect(error.code == .notAJournal)
            #expect(error.table == "jobs" && error.database == database)
            #expect(error.server == "\(journals.cluster.folder)/.s.PGSQL.\(journals.cluster.port)")
            #expect("\(error)".contains("missing columns: sequence, kind"), "\(error)")
            #expect("\(error)".contains("unexpected columns: id, name"), "\(error)")
        }
        let left = try await journals.cluster.psql(
            "SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute "
                + "WHERE attrelid = 'jobs'::regclass AND attnum > 0", database: database)
        #expect(left.trimmingCharacters(in: .whitespacesAndNewlines) == "id,key,name")
        let rows = try await journals.cluster.psql("SELECT name FROM jobs", database: database)
        #expect(rows.trimmingCharacters(in: .whitespacesAndNewlines) == "keep me")
        await journals.closeAll()
    }

    @Test func aMissingDatabaseIsNamed() async throws {
        let cluster = try await PostgresTestCluster.shared()
        do {
            _ = try await PostgresCommandJournal(url: cluster.url(database: "no_such_database"))
            Issue.record("a journal opened in a missing database")
        } catch {
            #expect(error.code == .cannotConnect)
            #expect(error.database == "no_such_database")
            #expect("\(error)".contains("3D000"), "\(error)")
        }
    }

    @Test func closeAnswersEveryWriteUnderWayThenRefusesMore() async throws {
        let journals = try await OpenJournals("close")
        let journal = try await journals.open()
        let lease = JournalLease(owner: "w", duration: .seconds(30))
        let writes = Task {
            try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        do {
                            return try await journal.begin(entry("k\(index)"), lease: lease).record.id
                        } catch let error as PostgresStoreError where error.code == .closed {
                            return nil
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { keys, key in key.map { keys.append($0) } }
            }
        }
        try await Task.sleep(for: .milliseconds(20))
        await journal.close()
        let acknowledged = try await writes.value
        do {
            _ = try await journal.record(forKey: "k0")
            Issue.record("a closed journal answered a read")
        } catch let error as PostgresStoreError {
            #expect(error.code == .closed)
        }
        let reopened = try await journals.open(table: journal.table)
        let stored = Set(try await reopened.allRecords().map(\.id))
        #expect(Set(acknowledged).isSubset(of: stored), "acknowledged writes are missing after close()")
        await journals.closeAll()
    }
}
