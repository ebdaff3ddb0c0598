import BehaviorKitPostgres
import BehaviorKitSync
import Commands
import Testing

/// Whether this machine can start a PostgreSQL cluster, and what the skipped tests say when not.
enum PostgresAvailability {
    static let reason = PostgresTestCluster.unavailableReason
    static let isAvailable = reason == nil
    static let skipped = Comment(
        rawValue: "skipped: PostgreSQL is not installed here (\(reason ?? "")); install it to run these tests")
}

/// For the conformance kits, whose subject is what a store keeps, not how fast it answers: beside
/// the fleets and the other tests on 2 cores a request can wait its turn for more than the
/// default 10 s (seen in CI), which would fail a check that has nothing to do with time.
let patientReconnection = PostgresCommandJournal.Reconnection(deadline: .seconds(180), requestTimeout: .seconds(90))

/// `url` (a test cluster's, which has parameters already) with a patient opening too: 60 s to
/// connect instead of 10 (opening waits for its first connection that long, plus 5 s).
func patient(_ url: String) -> String { url + "&connect_timeout=60" }

/// Journals a test opened, closed together at its end; and fresh table names for them.
final class OpenJournals: Sendable {
    private let journals = LockedValue<[PostgresCommandJournal]>([])
    private let counter = LockedValue(0)
    let cluster: PostgresTestCluster
    let database: String
    let url: String
    let prefix: String

    /// A new database on the shared cluster, whose tables start with `prefix`.
    init(_ prefix: String) async throws {
        cluster = try await PostgresTestCluster.shared()
        database = try await cluster.makeDatabase(prefix)
        url = cluster.url(database: database)
        self.prefix = prefix
    }

    /// A table name no other journal of this test uses.
    func newTable() -> String {
        let number = counter.withLock {
            $0 += 1
            return $0
        }
        return "\(prefix)_\(number)"
    }

    /// Opens a journal on `table` (a new one by default), kept for ``closeAll()``.
    func open(table: String? = nil, clock: (any WallClock)? = nil) async throws -> PostgresCommandJournal {
        let journal = try await PostgresCommandJournal(url: url, table: table ?? newTable(), clock: clock)
        journals.withLock { $0.append(journal) }
        return journal
    }

    /// Opens a journal on a new table, on `clock`, with patient timeouts (``patient(_:)``,
    /// ``patientReconnection``): for a conformance kit, kept for ``closeAll()``.
    func openPatient(clock: any WallClock) async throws -> PostgresCommandJournal {
        let journal = try await PostgresCommandJournal(
            url: patient(url), table: newTable(), clock: clock, reconnection: patientReconnection)
        journals.withLock { $0.append(journal) }
        return journal
    }

    func closeAll() async {
        for journal in journals.withLock({ $0 }) { await journal.close() }
    }

    /// The words of the one text `sql` answers in this test's database (a `string_agg`, say).
    func words(_ sql: String) async throws -> [String] {
        try await cluster.psql(sql, database: database).split(whereSeparator: \.isWhitespace).map(String.init)
    }
}

/// An entry for tests.
func entry(_ key: String, payload: [UInt8] = [1], parent: String? = nil) -> CommandJournalEntry {
    CommandJournalEntry(idempotencyKey: key, kind: "test", payload: payload, parentKey: parent)
}
