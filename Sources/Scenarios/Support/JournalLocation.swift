import BehaviorKitSQLite
public import Commands

#if PostgreSQL
import BehaviorKitPostgres
#endif

/// Where the CLI's `--journal` points: a SQLite file's path, or a `postgres://` (or
/// `postgresql://`) URL.
public enum JournalLocation {
    /// Opens the journal at `location` (a path, or a `postgres://` URL).
    ///
    /// - Throws: the journal's error naming the file, or the server, database and table;
    ///   ``PostgreSQLTraitMissing`` for a URL when this build has no PostgreSQL.
    public static func open(
        _ location: String, busyTimeout: Duration = .seconds(10)
    ) async throws -> any CommandJournalManagement {
        if isServerURL(location) {
            #if PostgreSQL
            return try await PostgresCommandJournal(url: location)
            #else
            throw PostgreSQLTraitMissing()
            #endif
        }
        return try SQLiteCommandJournal(path: location, busyTimeout: busyTimeout)
    }

    /// Whether `location` names a PostgreSQL server rather than a file.
    public static func isServerURL(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// Whether `error` came from a journal (it could not write, or refused a record), rather
    /// than from a command's own work.
    static func isJournalError(_ error: any Error) -> Bool {
        #if PostgreSQL
        if error is PostgresStoreError { return true }
        #endif
        return error is SQLiteStoreError || error is CommandJournalError
    }
}
