import BehaviorKitSQLite
public import Commands

/// Where the CLI's `--journal` points: a SQLite file's path, or a `postgres://` URL.
public enum JournalLocation {
    /// Opens the journal at `location` (a path, or a `postgres://` URL).
    ///
    /// - Throws: the journal's error naming the file, or the server, database and table.
    public static func open(_ location: String, busyTimeout: Duration = .seconds(10)) async throws -> any CommandJournal
    {
        try SQLiteCommandJournal(path: location, busyTimeout: busyTimeout)
    }

    /// Whether `error` came from a journal (it could not write, or refused a record), rather
    /// than from a command's own work.
    static func isJournalError(_ error: any Error) -> Bool {
        error is SQLiteCommandJournalError || error is CommandJournalError
    }
}
