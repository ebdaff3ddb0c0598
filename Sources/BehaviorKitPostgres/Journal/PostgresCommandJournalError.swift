/// Why a ``PostgresCommandJournal`` could not open, read or write its table. Names the server,
/// the database, the table and the problem.
///
/// ```swift
/// do { _ = try await PostgresCommandJournal(url: "postgres://app@db.internal/orders") } catch {
///     print(error)
///     // PostgreSQL command journal behaviorkit_command_journal in database orders on db.internal:5432:
///     // cannot connect (connection refused: no server listens there)
/// }
/// ```
public struct PostgresCommandJournalError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What went wrong.
    public enum Code: Hashable, Sendable {
        /// The URL is not a `postgres://` URL this journal understands.
        case invalidURL
        /// The table name is not a plain SQL identifier.
        case invalidTableName
        /// No connection could be made: no server there, the database does not exist, or the
        /// server accepts no more connections.
        case cannotConnect
        /// The server refused the user name or the password.
        case authenticationFailed
        /// A table with the journal's name exists but is not a command journal (other columns,
        /// or no unique key): it is left as it is.
        case notAJournal
        /// A record holds a value no journal writes (an unknown status, say).
        case malformedRecord
        /// No connection became free in time.
        case timedOut
        /// The server refused a statement (permissions, a value it cannot store): nothing of
        /// that request was written.
        case queryFailed
        /// The connection was lost mid-request: the request may or may not have been written.
        case ioFailed
        /// The journal was closed (``PostgresCommandJournal/close()``).
        case closed
        /// The server could not be reached until the request's deadline
        /// (``PostgresCommandJournal/Reconnection/deadline``) passed: nothing of the request was
        /// written. The reason names the last cause.
        case unreachable
        /// The connection was lost while a batch of writes was committing, and the server could
        /// not tell whether it committed before the deadline: the request may or may not have
        /// been written. Treat it as a lost lease: stop the work, and let the record's lease
        /// expire so that a worker takes it over.
        case outcomeUnknown
    }

    /// What went wrong.
    public let code: Code
    /// Where the server is: `host:port`, or the Unix socket's path.
    public let server: String
    /// The database's name.
    public let database: String
    /// The journal's table.
    public let table: String
    /// What the server said, or what was found.
    public let reason: String

    /// Creates an error about the journal `table` in `database` on `server`.
    public init(code: Code, server: String, database: String, table: String, reason: String) {
        self.code = code
        self.server = server
        self.database = database
        self.table = table
        self.reason = reason
    }

    /// Names the table, the database, the server, the problem and the server's own words, on
    /// one line.
    public var description: String {
        let reason = self.reason.split(whereSeparator: \.isNewline).joined(separator: " ")
        switch code {
        case .unreachable:
            return "cannot reach PostgreSQL at \(server)/\(database) \(reason) (journal \(table); nothing was written)"
        case .outcomeUnknown:
            return "lost PostgreSQL at \(server)/\(database) while a write committed: it may or may not have been "
                + "written (journal \(table); \(reason))"
        default: break
        }
        let place = "PostgreSQL command journal \(table) in database \(database) on \(server)"
        let problem =
            switch code {
            case .invalidURL: "invalid URL"
            case .invalidTableName: "invalid table name"
            case .cannotConnect: "cannot connect"
            case .authenticationFailed: "authentication failed"
            case .notAJournal: "the table is not a command journal; it is left as it is"
            case .malformedRecord: "malformed record"
            case .timedOut: "timed out"
            case .queryFailed: "the server refused the request; nothing of it was written"
            case .ioFailed: "the connection failed; the request may or may not have been written"
            case .closed: "the journal is closed"
            case .unreachable: "unreachable"
            case .outcomeUnknown: "outcome unknown"
            }
        return "\(place): \(problem) (\(reason))"
    }
}
