import Foundation
import GRDB

/// What a read-only connection finds in a database file, as its WAL makes it: the header
/// fields, the tables, the journal table's columns, and the problems SQLite's checks report.
struct JournalFileContents {
    var applicationID: Int32 = 0
    var identity: Int32 = 0
    var tables: [String] = []
    var columns: Set<String> = []
    var problems: [String] = []
    /// The first record no read could decode, described, or `nil`.
    var malformed: String?

    var isLayout2: Bool { CommandJournalSchema.isLayout2(columns) }

    /// Reads the file at `path` on a read-only connection: nothing is written to it or its WAL,
    /// and no file is added beside it (``ReadOnlyConnection``).
    static func read(
        _ path: String, verification: SQLiteCommandJournal.Verification, busyTimeout: Duration
    ) throws -> JournalFileContents {
        let queue = try ReadOnlyConnection.open(path, busyTimeout: busyTimeout)
        defer { try? queue.close() }
        return try queue.read { db in
            var contents = JournalFileContents()
            contents.applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            contents.identity = try Int32.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            contents.tables = try String.fetchAll(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            let quick = try String.fetchAll(db, sql: "PRAGMA quick_check")
            if quick != ["ok"] {
                contents.problems = quick
                return contents
            }
            contents.columns = try CommandJournalSchema.columns(db)
            if contents.isLayout2 || contents.columns == CommandJournalSchema.layout1Columns {
                (contents.problems, contents.malformed) = try verify(db, verification, layout2: contents.isLayout2)
            }
            return contents
        }
    }

    /// A read-only connection that waits up to `busyTimeout` for another process (one that
    /// rebuilds the WAL's index, say) instead of failing at once.
    static func readOnly(busyTimeout: Duration) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .polling(for: busyTimeout)
        return configuration
    }

    /// The main file alone, without its WAL: read from a copy, so that neither file changes.
    static func readMainFileAlone(_ path: String) throws -> JournalFileContents {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("behaviorkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("main.sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        return try read(copy, verification: .quick, busyTimeout: .zero)
    }

    /// Checks the journal's table entry by entry: `quick_check` (run first, on the whole file)
    /// checks pages but not that each index holds exactly the rows of its table, so a key index
    /// that lost an entry, or holds one under another key, would go unseen, and a second record
    /// under that key would be admitted. `.quick` runs `integrity_check` on the journal's table
    /// and its indexes; `.full` on every table and index of the file. Both then look for a record
    /// no read could decode.
    private static func verify(
        _ db: Database, _ verification: SQLiteCommandJournal.Verification, layout2: Bool
    ) throws -> (problems: [String], malformed: String?) {
        let sql = verification == .full ? "PRAGMA integrity_check" : "PRAGMA integrity_check(commandRecord)"
        let problems = try String.fetchAll(db, sql: sql)
        guard problems == ["ok"] else { return (problems, nil) }
        return ([], try JournalRecordCheck.firstMalformed(db, layout2: layout2))
    }
}
