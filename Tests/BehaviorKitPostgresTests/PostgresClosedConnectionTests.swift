import BehaviorKitSync
import Logging
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
        let journals = try await OpenJournals("closedsend")
        let journal = try await journals.open()
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let (rolledBack, commitFailure) = try await withTimeLimit(.seconds(10)) {
            try await journal.connections.pools.checkOut().client.withConnection { connection in
                try await connection.runWhileOpen("BEGIN", logger: logger)
                try await connection.close()
                await connection.rollBack(logger: logger)
                do {
                    try await connection.runWhileOpen("COMMIT", logger: logger)
                    return (true, nil as (any Error)?)
                } catch {
                    return (true, error)
                }
            }
        }
        #expect(rolledBack, "a rollback on a closed connection returns")
        let failure = try #require(commitFailure, "a commit on a closed connection fails")
        #expect(PostgresJournalNames.isConnectionLoss(failure), "and counts as a lost connection: \(failure)")
        await journals.closeAll()
    }

    @Test func aJournalStatementOnAClosedConnectionFailsAtOnce() async throws {
        let journals = try await OpenJournals("closedsend")
        let journal = try await journals.open()
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let failure = try await withTimeLimit(.seconds(10)) {
            try await journal.connections.pools.checkOut().client.withConnection { connection -> (any Error)? in
                try await connection.close()
                var bindings = PostgresBindings()
                bindings.append("some-key")
                do {
                    _ = try await connection.run(journal.writer.statements.recordByKey, bindings, logger: logger)
                    return nil
                } catch {
                    return error
                }
            }
        }
        let error = try #require(failure, "a journal statement on a closed connection fails")
        #expect(PostgresJournalNames.isConnectionLoss(error), "as a lost connection: \(error)")
        await journals.closeAll()
    }
}
