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
}
