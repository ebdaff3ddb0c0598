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

    var isLayout2: Bool { columns == CommandJournalSchema.layout2Columns }

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

    /// Finds damaged indexes: `quick_check` checks pages but not that each index holds exactly
    /// the rows of its table. One scan of the table counts each index's rows and looks every
    /// record up in the key index under its own key and sequence, which finds a key index that
    /// lost an entry or holds one with another key: the damage that would admit a second
    /// record under a key. `integrity_check` (`.full`) checks every entry of every index.
    private static func verify(
        _ db: Database, _ verification: SQLiteCommandJournal.Verification, layout2: Bool
    ) throws -> (problems: [String], malformed: String?) {
        let unindexed = """
            NOT EXISTS (SELECT 1 FROM commandRecord AS entry INDEXED BY sqlite_autoindex_commandRecord_1
                WHERE entry.key = record.key AND entry.sequence = record.sequence)
            """
        if verification == .full {
            let problems = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            return (problems == ["ok"] ? [] : problems, try JournalRecordCheck.firstMalformed(db, layout2: layout2))
        }
        guard
            let table = try Row.fetchOne(
                db,
                sql: """
                    SELECT count(*) AS rows, sum(status = 'pending') AS pending, sum(parentKey IS NOT NULL) AS children,
                        sum(status = 'pending' AND parentKey IS NULL) AS open,
                        sum(\(unindexed)) AS unindexed,
                        sum(NOT \(JournalRecordCheck.wellFormed(layout2: layout2))) AS malformed
                    FROM commandRecord AS record NOT INDEXED
                    """)
        else { return ([], nil) }
        var indexes: [(name: String, filter: String, expected: Int)] = [
            ("sqlite_autoindex_commandRecord_1", "", table["rows"]),
            ("commandRecordPending", "WHERE status = 'pending'", table["pending"] ?? 0),
            ("commandRecordParent", "WHERE parentKey IS NOT NULL", table["children"] ?? 0),
        ]
        if layout2 {
            indexes.append(("commandRecordOpen", "WHERE status = 'pending' AND parentKey IS NULL", table["open"] ?? 0))
        }
        var problems: [String] = []
        if let count = table["unindexed"] as Int?, count > 0 {
            let first = try Int64.fetchOne(
                db, sql: "SELECT min(sequence) FROM commandRecord AS record NOT INDEXED WHERE \(unindexed)")
            problems.append(
                "record \(first ?? 0) missing from index sqlite_autoindex_commandRecord_1"
                    + (count > 1 ? " (and \(count - 1) more)" : ""))
        }
        for index in indexes {
            let count = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM commandRecord INDEXED BY \(index.name) \(index.filter)")
            if count != index.expected {
                problems.append("index \(index.name) has \(count ?? 0) entries for \(index.expected) rows")
            }
        }
        let malformed =
            (table["malformed"] as Int? ?? 0) > 0 ? try JournalRecordCheck.firstMalformed(db, layout2: layout2) : nil
        return (problems, malformed)
    }
}
