import Logging
import PostgresNIO

/// Waits until a statement run in its own implicit transaction has committed.
///
/// postgres-nio answers a statement when its `CommandComplete` comes in. A statement outside
/// `BEGIN` … `COMMIT` runs in an implicit transaction that the server commits later, on the
/// protocol's `Sync`, before its `ReadyForQuery`. Between the two the commit can still fail: the
/// backend is terminated (`pg_terminate_backend`, a server's fast shutdown: the rows and
/// `CommandComplete` come, then a FATAL error), a deferred constraint or a serializable
/// transaction refuses it. postgres-nio then closes the connection, but the statement was
/// already answered: a write taken for committed would be gone. (The same trap was fixed in
/// rust-postgres #833 and reported against postgres.js #1090 and Bun #21945.)
///
/// postgres-nio sends a connection's next statement only after the `ReadyForQuery` of the one
/// before, so an empty statement sent next is answered only when the first committed; when
/// the commit failed, the connection is closed and the empty statement fails. A statement
/// followed by another on its connection needs no such wait, nor a `COMMIT` (which answers once
/// it committed): only the last statement of a request that writes outside a transaction does.
/// The journal's batches send the empty statement as soon as their own is under way
/// (``PostgresConnection/run(_:_:logger:confirmingCommit:)``), so that the server gets it as it
/// answers the batch: one more round trip on the wire, no more hops between tasks.
enum ImplicitCommit {
    /// The commit of the statement answered before on `connection` failed, or could not be
    /// confirmed: the connection is gone, and the statement's write may not have been kept.
    /// Handled as a lost connection (``PostgresJournalNames/isConnectionLoss(_:)``): the
    /// request runs again on a new connection when it may (its writes answer the same run
    /// again), or fails with `.outcomeUnknown`.
    struct Unconfirmed: Error, CustomStringConvertible {
        let underlying: String
        var description: String {
            "the connection was lost before the server confirmed the commit of the statement it answered: \(underlying)"
        }
    }

    /// Returns once the last statement answered on `connection` committed; throws
    /// ``Unconfirmed`` when its commit failed or the connection was lost first.
    static func confirm(on connection: PostgresConnection, logger: Logger) async throws {
        try await wait(for: send(on: connection, logger: logger))
    }

    /// Sends the empty statement now, queued on `connection` behind the statements sent before:
    /// a statement sent just before it needs no hop back to its caller's task before its
    /// commit is confirmed; ``wait(for:)`` waits for the answer.
    ///
    /// It is sent only while the connection is open (``PostgresConnection/whileOpen(_:)``): on
    /// one already closed, it fails at once.
    static func send(on connection: PostgresConnection, logger: Logger) -> EventLoopFuture<PostgresQueryResult> {
        connection.whileOpen { connection.query(PostgresQuery(unsafeSQL: ""), logger: logger) }
    }

    /// Waits for the empty statement `sent` (``send(on:logger:)``): throws ``Unconfirmed`` when it
    /// failed.
    static func wait(for sent: EventLoopFuture<PostgresQueryResult>) async throws {
        do {
            _ = try await sent.get()
        } catch {
            throw Unconfirmed(underlying: String(describing: error).prefix(300).description)
        }
    }
}
