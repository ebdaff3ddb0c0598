import Logging
import PostgresNIO

/// A statement was not sent: its connection had closed (``PostgresConnection/whileOpen(_:)``).
/// Handled as a lost connection (``PostgresJournalNames/isConnectionLoss(_:)``).
struct ConnectionClosedBeforeSending: Error, CustomStringConvertible {
    var description: String { "the connection closed before the statement was sent" }
}

extension PostgresConnection {
    /// Sends what `send` writes on this connection only while it is open, and fails at once
    /// (``ConnectionClosedBeforeSending``) when it closed.
    ///
    /// postgres-nio never answers a statement written to a connection already closed: its
    /// handler has left the channel, and the statement's promise is dropped, so that whoever
    /// awaits it waits for ever, holding its task. A `ROLLBACK` after a lost connection, or a
    /// `COMMIT` after the server was restarted, is written just when that may happen. The state
    /// is read and the statement written in one turn of the connection's event loop: one still
    /// open has the statement queued, and fails it if it closes later.
    func whileOpen<Value: Sendable>(_ send: @escaping @Sendable () -> EventLoopFuture<Value>) -> EventLoopFuture<Value>
    {
        let eventLoop = self.eventLoop
        return eventLoop.flatSubmit {
            guard !self.isClosed else { return eventLoop.makeFailedFuture(ConnectionClosedBeforeSending()) }
            return send()
        }
    }

    /// Runs `query` while the connection is open and returns its rows; throws
    /// ``ConnectionClosedBeforeSending`` when it closed first. Every statement of the store that
    /// is not one of its prepared statements (``run(_:_:logger:confirmingCommit:)``) is sent so.
    @discardableResult
    func rowsWhileOpen(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await whileOpen { self.query(query, logger: logger) }.get().rows
    }

    /// Runs `sql` (a statement without parameters) while the connection is open; throws
    /// ``ConnectionClosedBeforeSending`` when it closed first.
    func runWhileOpen(_ sql: String, logger: Logger) async throws {
        try await rowsWhileOpen(PostgresQuery(unsafeSQL: sql), logger: logger)
    }

    /// Rolls back the transaction open on this connection, if any (a `ROLLBACK` outside one only
    /// warns); a failure, or a connection already closed (which rolled it back), is ignored.
    func rollBack(logger: Logger) async {
        _ = try? await runWhileOpen("ROLLBACK", logger: logger)
    }
}
