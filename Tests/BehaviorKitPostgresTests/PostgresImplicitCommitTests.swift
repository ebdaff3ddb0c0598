import BehaviorKitSync
import Commands
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import BehaviorKitPostgres

/// A write that runs as one statement outside `BEGIN` commits on the protocol's `Sync`, after
/// the statement was answered (``ImplicitCommit``): the journal answers it only once it
/// committed. Here the commit fails once, refused by a deferred trigger, as a backend terminated
/// between the answer and the commit (a server's fast shutdown) fails it.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresImplicitCommitTests {
    /// Makes the first commit that inserted into `table` fail (a sequence, which a rollback
    /// does not undo, counts the commits).
    static func refuseFirstCommit(of table: String, _ journals: OpenJournals) async throws {
        try await journals.cluster.psql(
            """
            CREATE SEQUENCE "\(table)_refusals";
            CREATE FUNCTION "\(table)_refuse_first"() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF nextval('"\(table)_refusals"') = 1 THEN RAISE EXCEPTION 'the first commit is refused'; END IF;
                RETURN NULL;
            END $$;
            CREATE CONSTRAINT TRIGGER refuse_first AFTER INSERT ON "\(table)" DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW EXECUTE FUNCTION "\(table)_refuse_first"();
            """, database: journals.database)
    }

    /// A journal on a new table whose first commit is refused (``refuseFirstCommit(of:_:)``).
    static func refusingFirstCommit() async throws -> (OpenJournals, PostgresCommandJournal, table: String) {
        let journals = try await OpenJournals("implicit")
        let table = journals.newTable()
        let journal = try await journals.open(table: table)
        try await refuseFirstCommit(of: table, journals)
        return (journals, journal, table)
    }

    @Test func anEnqueueWhoseCommitFailedIsWrittenAgainBeforeItIsAnswered() async throws {
        let (journals, journal, table) = try await Self.refusingFirstCommit()
        let record = try await withTimeLimit(.seconds(60)) {
            try await journal.enqueue(entry("order-1"), queue: "orders", after: .zero)
        }
        #expect(record.id == "order-1")
        let stored = try await journal.record(forKey: "order-1")
        #expect(stored?.status == .pending, "the enqueue answered is in the journal")
        let refusals = try await journals.words("SELECT last_value FROM \"\(table)_refusals\"")
        #expect(refusals == ["2"], "the refused commit ran again")
        await journals.closeAll()
    }

    @Test func aBulkEnqueueWhoseCommitFailedIsWrittenAgainBeforeItIsAnswered() async throws {
        let (journals, journal, _) = try await Self.refusingFirstCommit()
        let records = try await withTimeLimit(.seconds(60)) {
            try await CommandQueue("bulk", journal: journal).enqueue(contentsOf: [
                QueuedJob(entry("a")), QueuedJob(entry("b")),
            ])
        }
        #expect(records.map(\.id) == ["a", "b"])
        for key in ["a", "b"] {
            #expect(try await journal.record(forKey: key) != nil, "the enqueue answered is in the journal")
        }
        await journals.closeAll()
    }

    /// A body runs alone — and so waits for its implicit commit — when it is one losable
    /// statement, or one statement of a journal that does not resolve lost commits; in a
    /// transaction the journal opens otherwise.
    @Test func aBodyRunsAloneOnlyOutsideTheJournalsTransactions() async throws {
        let journals = try await OpenJournals("implicit")
        let resolving = try await journals.open()
        let plain = try await PostgresCommandJournal(
            url: journals.url, table: journals.newTable(), reconnection: .init(resolvesLostCommits: false, seed: 1))
        func run(
            _ journal: PostgresCommandJournal, oneStatement: Bool = true, losable: Bool = false
        ) async throws -> PostgresJournalConnections.Run {
            try await journal.connections.withConnectionPastTheGate(
                identified: { _, run in .unidentified(run) }, oneStatement: oneStatement, losable: losable)
        }
        #expect(try await run(resolving, losable: true) == .alone)
        #expect(try await run(resolving) == .identifying)
        #expect(try await run(resolving, oneStatement: false) == .identifying)
        #expect(try await run(plain, losable: true) == .alone)
        #expect(try await run(plain) == .alone)
        #expect(try await run(plain, oneStatement: false) == .inTransaction)
        await plain.close()
        await journals.closeAll()
    }

    /// postgres-nio never answers a statement written to a closed connection: a confirmation
    /// asked there fails at once instead of holding its task (and its lease) for ever.
    @Test func aConfirmationOnAClosedConnectionFailsAtOnce() async throws {
        let failure = try await onAClosedConnection("implicit") { connection, _, logger in
            try await ImplicitCommit.confirm(on: connection, logger: logger)
        }
        #expect(failure is ImplicitCommit.Unconfirmed, "confirming on a closed connection fails, as a lost connection")
    }
}
