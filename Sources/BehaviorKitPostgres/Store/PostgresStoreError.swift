/// Why a PostgreSQL store — its command journal (``PostgresCommandJournal``) or its machine
/// store (``PostgresMachineStore``) — could not open, read or write its tables: one error type
/// with a ``Code`` for both, naming the server, the database, the part and its table, and the
/// problem.
///
/// ```swift
/// do { _ = try await PostgresCommandJournal(url: "postgres://app@db.internal/orders") } catch let error as PostgresStoreError {
///     print(error)
///     // PostgreSQL command journal behaviorkit_command_journal in database orders on db.internal:5432:
///     // cannot connect (connection refused: no server listens there)
///     if error.code == .cannotConnect { /* retry later */ }
/// }
/// ```
///
/// `PostgresCommandJournalError` and `PostgresMachineStoreError` are its earlier names.
public struct PostgresStoreError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What went wrong.
    public enum Code: Hashable, Sendable {
        /// The URL is not a `postgres://` URL the store understands.
        case invalidURL
        /// The journal's table name, or the machine store's tables' prefix, is not a plain SQL
        /// identifier (a prefix: of at most 48 characters).
        case invalidTableName
        /// No connection could be made: no server there, the database does not exist, or the
        /// server accepts no more connections.
        case cannotConnect
        /// The server refused the user name or the password.
        case authenticationFailed
        /// A table with the journal's name exists but is not a command journal (other columns,
        /// or no unique key): it is left as it is.
        case notAJournal
        /// A table with one of the machine store's names exists but is not the store's (other
        /// columns): it is left as it is.
        case notAMachineStore
        /// A row holds a value the store never writes (an unknown status, say).
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
        /// The store was closed (``PostgresCommandJournal/close()``, ``PostgresMachineStore/close()``).
        case closed
        /// The server could not be reached until the request's deadline
        /// (``PostgresCommandJournal/Reconnection/deadline``) passed: nothing of the request was
        /// written. The reason names the last cause.
        case unreachable
        /// The connection was lost while a write was committing, and the server could not tell
        /// whether it committed before the deadline: the request may or may not have been
        /// written. A journal's worker treats it as a lost lease (it stops the work, and lets the
        /// record's lease expire so that a worker takes it over); read a machine's instance to
        /// find out.
        case outcomeUnknown

        /// The machine store's word for ``invalidTableName``.
        public static var invalidTablePrefix: Code { .invalidTableName }
    }

    /// Which part of the store the error is about.
    public enum Part: Hashable, Sendable {
        /// The command journal: ``PostgresStoreError/table`` is its table.
        case commandJournal
        /// The machine store: ``PostgresStoreError/table`` is the prefix of its tables.
        case machineStore
    }

    /// What went wrong.
    public let code: Code
    /// Which part of the store it is about.
    public let part: Part
    /// Where the server is: `host:port`, or the Unix socket's path.
    public let server: String
    /// The database's name.
    public let database: String
    /// The journal's table, or the prefix of the machine store's tables.
    public let table: String
    /// What the server said, or what was found.
    public let reason: String

    /// The prefix of the machine store's tables (``table``).
    public var tablePrefix: String { table }

    /// Creates an error about the command journal `table` in `database` on `server`.
    public init(code: Code, server: String, database: String, table: String, reason: String) {
        self.init(code: code, part: .commandJournal, server: server, database: database, table: table, reason: reason)
    }

    /// Creates an error about the machine store whose tables start with `tablePrefix`, in
    /// `database` on `server`.
    public init(code: Code, server: String, database: String, tablePrefix: String, reason: String) {
        self.init(
            code: code, part: .machineStore, server: server, database: database, table: tablePrefix, reason: reason)
    }

    /// Creates an error about `part` of the store, whose table (or tables' prefix) is `table`.
    public init(code: Code, part: Part, server: String, database: String, table: String, reason: String) {
        self.code = code
        self.part = part
        self.server = server
        self.database = database
        self.table = table
        self.reason = reason
    }

    /// The error the connections (shared with the journal) raised, as the machine store's.
    var asMachineStore: PostgresStoreError {
        guard part == .commandJournal else { return self }
        let code: Code = self.code == .notAJournal ? .notAMachineStore : self.code
        let reason = code == .closed ? "close() was called; open a new store to go on" : reason
        return PostgresStoreError(
            code: code, part: .machineStore, server: server, database: database, table: table, reason: reason)
    }

    /// Names the part and its table, the database, the server, the problem and the server's own
    /// words, on one line.
    public var description: String {
        let reason = self.reason.split(whereSeparator: \.isNewline).joined(separator: " ")
        let name =
            switch part {
            case .commandJournal: "journal \(table)"
            case .machineStore: "machine store \(table)"
            }
        switch code {
        case .unreachable:
            return "cannot reach PostgreSQL at \(server)/\(database) \(reason) (\(name); nothing was written)"
        case .outcomeUnknown:
            return "lost PostgreSQL at \(server)/\(database) while a write committed: it may or may not have been "
                + "written (\(name); \(reason))"
        default: break
        }
        let place =
            switch part {
            case .commandJournal: "PostgreSQL command journal \(table) in database \(database) on \(server)"
            case .machineStore: "PostgreSQL machine store \(table) in database \(database) on \(server)"
            }
        let problem =
            switch code {
            case .invalidURL: "invalid URL"
            case .invalidTableName: part == .commandJournal ? "invalid table name" : "invalid table prefix"
            case .cannotConnect: "cannot connect"
            case .authenticationFailed: "authentication failed"
            case .notAJournal: "the table is not a command journal; it is left as it is"
            case .notAMachineStore: "a table is not the machine store's; it is left as it is"
            case .malformedRecord: "malformed record"
            case .invalidValue: "invalid value; nothing was written"
            case .timedOut: "timed out"
            case .queryFailed: "the server refused the request; nothing of it was written"
            case .ioFailed: "the connection failed; the request may or may not have been written"
            case .closed: part == .commandJournal ? "the journal is closed" : "the store is closed"
            case .unreachable: "unreachable"
            case .outcomeUnknown: "outcome unknown"
            }
        return "\(place): \(problem) (\(reason))"
    }
}

/// The command journal's error: ``PostgresStoreError``, by its earlier name.
public typealias PostgresCommandJournalError = PostgresStoreError

/// The machine store's error: ``PostgresStoreError``, by its earlier name.
public typealias PostgresMachineStoreError = PostgresStoreError
