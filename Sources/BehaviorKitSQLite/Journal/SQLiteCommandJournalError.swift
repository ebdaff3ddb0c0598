/// Why a ``SQLiteCommandJournal`` could not open, read or write its file. Names the file and
/// the problem.
///
/// ```swift
/// do { _ = try SQLiteCommandJournal(path: "/var/orders.journal") } catch {
///     print(error)
///     // command journal /var/orders.journal: corrupt or truncated (database disk image is malformed);
///     // the file is left as it is: restore it from a backup, or move it away to start a new journal
/// }
/// ```
public struct SQLiteCommandJournalError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public enum Code: Hashable, Sendable {
        /// The file exists but is not a SQLite database at all.
        case notADatabase
        /// The file is a SQLite database that is damaged: corrupt, or cut short.
        case corrupt
        /// The file is a readable database, but not a command journal (or a newer one).
        case notAJournal
        /// A record holds a value no journal writes (an unknown status, say).
        case malformedRecord
        /// The file cannot be opened or created (a missing folder, no permission).
        case cannotOpen
        /// A read or write failed after the file was opened.
        case ioFailed
    }

    /// What went wrong.
    public let code: Code
    /// The journal's file.
    public let path: String
    /// What SQLite said, or what was found.
    public let reason: String

    /// Creates an error about the journal at `path`.
    public init(code: Code, path: String, reason: String) {
        self.code = code
        self.path = path
        self.reason = reason
    }

    /// Names the file, the problem, and what to do; never suggests deleting records silently.
    public var description: String {
        let keep = "the file is left as it is: restore it from a backup, or move it away to start a new journal"
        return switch code {
        case .notADatabase: "command journal \(path): not a SQLite database (\(reason)); \(keep)"
        case .corrupt: "command journal \(path): corrupt or truncated (\(reason)); \(keep)"
        case .notAJournal: "command journal \(path): not a command journal (\(reason)); \(keep)"
        case .malformedRecord: "command journal \(path): malformed record (\(reason))"
        case .cannotOpen: "command journal \(path): cannot open the file (\(reason))"
        case .ioFailed: "command journal \(path): \(reason)"
        }
    }
}
