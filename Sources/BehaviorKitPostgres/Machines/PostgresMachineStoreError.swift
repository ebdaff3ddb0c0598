/// Why a ``PostgresMachineStore`` could not open, read or write its tables. Names the server,
/// the database, the tables' prefix and the problem.
///
/// ```swift
/// do { _ = try await PostgresMachineStore(url: "postgres://app@db.internal/orders") } catch {
///     print(error)
///     // PostgreSQL machine store behaviorkit_machine in database orders on db.internal:5432:
///     // cannot connect (connection refused: no server listens there)
/// }
/// ```
public struct PostgresMachineStoreError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What went wrong.
    public enum Code: Hashable, Sendable {
        /// The URL is not a `postgres://` URL the store understands.
        case invalidURL
        /// The tables' prefix is not a plain SQL identifier of at most 48 characters.
        case invalidTablePrefix
        /// No connection could be made: no server there, the database does not exist, or the
        /// server accepts no more connections.
        case cannotConnect
        /// The server refused the user name or the password.
        case authenticationFailed
        /// A table with one of the store's names exists but is not the store's (other
        /// columns): it is left as it is.
        case notAMachineStore
        /// A row holds a value the store never writes.
        case malformedRecord
        /// A value the store cannot write: text holding U+0000, or a commit whose step's
        /// sequence is not its expected version plus one. Nothing was written.
        case invalidValue
        /// No connection became free in time, or the server did not answer in time.
        case timedOut
        /// The server refused a statement (permissions, a value it cannot store): nothing of
        /// that request was written.
        case queryFailed
        /// The connection was lost mid-request: the request may or may not have been written.
        case ioFailed
        /// The store was closed (``PostgresMachineStore/close()``).
        case closed
        /// The server could not be reached until the request's deadline passed: nothing of the
        /// request was written. The reason names the last cause.
        case unreachable
        /// The connection was lost while a write was committing, and the server could not tell
        /// whether it committed before the deadline: read the instance to find out.
        case outcomeUnknown
    }

    /// What went wrong.
    public let code: Code
    /// Where the server is: `host:port`, or the Unix socket's path.
    public let server: String
    /// The database's name.
    public let database: String
    /// The prefix of the store's tables.
    public let tablePrefix: String
    /// What the server said, or what was found.
    public let reason: String

    /// Creates an error about the store whose tables start with `tablePrefix`, in `database` on
    /// `server`.
    public init(code: Code, server: String, database: String, tablePrefix: String, reason: String) {
        self.code = code
        self.server = server
        self.database = database
        self.tablePrefix = tablePrefix
        self.reason = reason
    }

    /// The error the connections (shared with the journal) raised, as the store's.
    init(_ error: PostgresCommandJournalError) {
        let code: Code =
            switch error.code {
            case .invalidURL: .invalidURL
            case .invalidTableName: .invalidTablePrefix
            case .cannotConnect: .cannotConnect
            case .authenticationFailed: .authenticationFailed
            case .notAJournal: .notAMachineStore
            case .malformedRecord: .malformedRecord
            case .timedOut: .timedOut
            case .queryFailed: .queryFailed
            case .ioFailed: .ioFailed
            case .closed: .closed
            case .unreachable: .unreachable
            case .outcomeUnknown: .outcomeUnknown
            }
        let reason =
            error.code == .closed ? "close() was called; open a new store to go on" : error.reason
        self.init(
            code: code, server: error.server, database: error.database, tablePrefix: error.table, reason: reason)
    }

    /// Names the tables, the database, the server, the problem and the server's own words, on
    /// one line.
    public var description: String {
        let reason = self.reason.split(whereSeparator: \.isNewline).joined(separator: " ")
        switch code {
        case .unreachable:
            return "cannot reach PostgreSQL at \(server)/\(database) \(reason) "
                + "(machine store \(tablePrefix); nothing was written)"
        case .outcomeUnknown:
            return "lost PostgreSQL at \(server)/\(database) while a write committed: it may or may not have been "
                + "written (machine store \(tablePrefix); \(reason))"
        default: break
        }
        let place = "PostgreSQL machine store \(tablePrefix) in database \(database) on \(server)"
        let problem =
            switch code {
            case .invalidURL: "invalid URL"
            case .invalidTablePrefix: "invalid table prefix"
            case .cannotConnect: "cannot connect"
            case .authenticationFailed: "authentication failed"
            case .notAMachineStore: "a table is not the machine store's; it is left as it is"
            case .malformedRecord: "malformed record"
            case .invalidValue: "invalid value; nothing was written"
            case .timedOut: "timed out"
            case .queryFailed: "the server refused the request; nothing of it was written"
            case .ioFailed: "the connection failed; the request may or may not have been written"
            case .closed: "the store is closed"
            case .unreachable: "unreachable"
            case .outcomeUnknown: "outcome unknown"
            }
        return "\(place): \(problem) (\(reason))"
    }
}
