/// Why a SQLite store — its command journal (``SQLiteCommandJournal``) or its machine store
/// (``SQLiteMachineStore``) — could not open, read or write its file: one error type with a
/// ``Code`` for both. Names the part, the file (or its WAL) and the problem.
///
/// ```swift
/// do { _ = try SQLiteCommandJournal(path: "/var/orders.journal") } catch let error as SQLiteStoreError {
///     print(error)
///     // command journal /var/orders.journal: corrupt or truncated (database disk image is malformed);
///     // the file is left as it is: restore it from a backup, or move it away to start a new journal
///     if error.code == .locked { /* try again later */ }
/// }
/// ```
///
/// `SQLiteCommandJournalError` and `SQLiteMachineStoreError` are its earlier names.
public struct SQLiteStoreError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What went wrong.
    public enum Code: Hashable, Sendable {
        /// The file exists but is not a SQLite database at all.
        case notADatabase
        /// The file is a SQLite database that is damaged: corrupt, cut short, or with an index
        /// that does not match its table.
        case corrupt
        /// The file is a readable database, but not a command journal (or a newer one).
        case notAJournal
        /// The file is a readable database, but not a machine store: another application's
        /// tables, or a command journal opened as a machine store alone.
        case notAMachineStore
        /// The WAL file beside the journal (`<path>-wal`) belongs to another database: applying
        /// it would replace the journal's records. Neither file was changed.
        case foreignWAL
        /// A record holds a value no journal writes (an unknown status, say).
        case malformedRecord
        /// The file cannot be opened or created (a missing folder, no permission).
        case cannotOpen
        /// Another process held the journal's write lock for longer than the busy timeout.
        case locked
        /// The disk (or the process's file-size limit) is full: the write was not made.
        case diskFull
        /// The file or its folder is read-only.
        case readOnly
        /// The store was closed (``SQLiteCommandJournal/close()``, ``SQLiteMachineStore/close()``).
        case closed
        /// A read or write failed after the file was opened.
        case ioFailed
    }

    /// Which part of the store an error is about.
    public enum Part: Hashable, Sendable {
        /// The command journal.
        case commandJournal
        /// The machine store.
        case machineStore
    }

    /// What went wrong.
    public let code: Code
    /// Which part of the store it is about.
    public let part: Part
    /// The store's file.
    public let path: String
    /// What SQLite said, or what was found.
    public let reason: String

    /// Creates an error about the command journal at `path`.
    public init(code: Code, path: String, reason: String) {
        self.init(code: code, part: .commandJournal, path: path, reason: reason)
    }

    /// Creates an error about `part` of the store at `path`.
    public init(code: Code, part: Part, path: String, reason: String) {
        self.code = code
        self.part = part
        self.path = path
        self.reason = reason
    }

    /// Names the part, the file, the problem, and what to do; never suggests deleting records
    /// silently.
    public var description: String {
        let keep = "the file is left as it is: restore it from a backup, or move it away to start a new journal"
        if part == .machineStore { return machineStoreDescription }
        return switch code {
        case .notADatabase: "command journal \(path): not a SQLite database (\(reason)); \(keep)"
        case .corrupt: "command journal \(path): corrupt or truncated (\(reason)); \(keep)"
        case .notAJournal, .notAMachineStore: "command journal \(path): not a command journal (\(reason)); \(keep)"
        case .foreignWAL:
            "command journal \(path): the WAL file \(path)-wal does not belong to it (\(reason)); it was not applied "
                + "and both files are left as they were: move the WAL away if it is not this journal's"
        case .malformedRecord: "command journal \(path): malformed record (\(reason))"
        case .cannotOpen: "command journal \(path): cannot open the file (\(reason))"
        case .locked:
            "command journal \(path): another process held its write lock too long (\(reason)); nothing was written"
        case .diskFull: "command journal \(path): the disk is full (\(reason)); nothing was written"
        case .readOnly: "command journal \(path): the file or its folder is read-only (\(reason))"
        case .closed: "command journal \(path): closed; nothing was written"
        case .ioFailed: "command journal \(path): \(reason)"
        }
    }

    /// ``description`` for the machine store.
    private var machineStoreDescription: String {
        let place = "machine store \(path)"
        return switch code {
        case .notADatabase: "\(place): not a SQLite database (\(reason)); the file is left as it is"
        case .corrupt: "\(place): corrupt or truncated (\(reason)); the file is left as it is"
        case .notAJournal, .notAMachineStore: "\(place): \(reason); the file is left as it is"
        case .foreignWAL: "\(place): the WAL file \(path)-wal does not belong to it (\(reason)); it was not applied"
        case .malformedRecord: "\(place): malformed record (\(reason))"
        case .cannotOpen: "\(place): cannot open the file (\(reason))"
        case .locked: "\(place): another process held its write lock too long (\(reason)); nothing was written"
        case .diskFull: "\(place): the disk is full (\(reason)); nothing was written"
        case .readOnly: "\(place): the file or its folder is read-only (\(reason))"
        case .closed: "\(place): closed; nothing was written"
        case .ioFailed: "\(place): \(reason)"
        }
    }
}

/// The command journal's error: ``SQLiteStoreError``, by its earlier name.
public typealias SQLiteCommandJournalError = SQLiteStoreError

/// The machine store's error: ``SQLiteStoreError``, by its earlier name.
public typealias SQLiteMachineStoreError = SQLiteStoreError
