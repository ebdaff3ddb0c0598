import Logging
import PostgresNIO

@testable import BehaviorKitPostgres

/// Runs `body` on a connection of a new journal's pool, after `opening` ran on it and the
/// connection was closed, within 10 s, and returns the error `body` threw (`nil` when it
/// returned): postgres-nio never answers a statement written to a closed connection, so a
/// body that sends one without checking runs past the limit and the test fails.
func onAClosedConnection(
    _ name: String,
    opening: @escaping @Sendable (PostgresConnection, Logger) async throws -> Void = { _, _ in },
    _ body: @escaping @Sendable (PostgresConnection, PostgresCommandJournal, Logger) async throws -> Void
) async throws -> (any Error)? {
    let journals = try await OpenJournals(name)
    let journal = try await journals.open()
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    let failure = try await withTimeLimit(.seconds(10)) {
        try await journal.connections.pools.checkOut().client.withConnection { connection -> (any Error)? in
            try await opening(connection, logger)
            try await connection.close()
            do {
                try await body(connection, journal, logger)
                return nil
            } catch {
                return error
            }
        }
    }
    await journals.closeAll()
    return failure
}
