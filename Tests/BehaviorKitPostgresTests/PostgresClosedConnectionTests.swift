import Commands
import PostgresNIO
import Testing

@testable import BehaviorKitPostgres

/// postgres-nio never answers a statement written to a connection already closed: the
/// journal's `BEGIN`, `COMMIT` and `ROLLBACK` are sent only while it is open
/// (``PostgresConnection/whileOpen(_:)``), so that a request left behind on a lost connection
/// ends instead of holding its task for ever.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresClosedConnectionTests {
    @Test func statementsOnAClosedConnectionEndAtOnce() async throws {
        let failure = try await onAClosedConnection("closedsend") { connection, logger in
            try await connection.runWhileOpen("BEGIN", logger: logger)
        } _: { connection, _, logger in
            await connection.rollBack(logger: logger)
            try await connection.runWhileOpen("COMMIT", logger: logger)
        }
        let error = try #require(failure, "a rollback on a closed connection returns, a commit there fails")
        #expect(PostgresJournalNames.isConnectionLoss(error), "as a lost connection: \(error)")
    }

    @Test func aJournalStatementOnAClosedConnectionFailsAtOnce() async throws {
        let failure = try await onAClosedConnection("closedsend") { connection, journal, logger in
            var bindings = PostgresBindings()
            bindings.append("some-key")
            _ = try await connection.run(journal.writer.statements.recordByKey, bindings, logger: logger)
        }
        let error = try #require(failure, "a journal statement on a closed connection fails")
        #expect(PostgresJournalNames.isConnectionLoss(error), "as a lost connection: \(error)")
    }

    /// Every statement of the store that is not prepared (schema, notifications, a machine
    /// step's savepoint, the application's own connection) is sent only while it is open.
    @Test func aStatementNotPreparedOnAClosedConnectionFailsAtOnce() async throws {
        let failure = try await onAClosedConnection("closedsend") { connection, _, logger in
            try await connection.rowsWhileOpen("SELECT 1", logger: logger)
        }
        let error = try #require(failure, "a statement on a closed connection fails")
        #expect(PostgresJournalNames.isConnectionLoss(error), "as a lost connection: \(error)")
    }

    /// An enqueue on the application's connection, closed (its server restarted, say), fails at
    /// once as a lost connection, as the journal's own writes do.
    @Test func anEnqueueOnTheApplicationsClosedConnectionFailsAtOnce() async throws {
        let failure = try await onAClosedConnection("closedsend") { connection, journal, _ in
            _ = try await journal.enqueue(
                CommandJournalEntry(idempotencyKey: "k", kind: "test.noop"), queue: "q", on: connection)
        }
        let error = try #require(failure as? PostgresStoreError, "the enqueue fails: \(String(describing: failure))")
        #expect(error.code == .ioFailed && error.reason.contains("closed"), "\(error)")
    }
}
