public import Commands
import Foundation
import GRDB

/// A command journal opened for reading only: nothing is written to the file or its WAL, so
/// the file's bytes stay as they are (listing a journal, a backup's check, read-only media).
///
/// ```swift
/// let reader = try SQLiteCommandJournalReader(path: "orders.journal")
/// for record in try reader.allRecords() { print(record.status, record.id) }
/// ```
///
/// On a read-only folder, where SQLite cannot make the WAL's index beside the file, the reader
/// reads a copy of the file and its WAL in a temporary folder.
///
/// It also reads a journal kept in an application's own database
/// (``SQLiteCommandJournal/registerMigrations(in:)``), recognised by its `commandRecord` table
/// with the journal's columns.
public final class SQLiteCommandJournalReader: Sendable {
    /// The journal's file.
    public let path: String
    private let queue: DatabaseQueue
    private let copy: URL?

    /// Opens the journal at `path` for reading, after the same checks as
    /// ``SQLiteCommandJournal/init(path:durability:busyTimeout:clock:verification:logger:)``
    /// (the default `.quick` verification; in an application's database, of the whole file).
    ///
    /// - Throws: ``SQLiteStoreError`` naming `path` when there is no such file, or it
    ///   fails a check.
    public init(path: String) throws(SQLiteStoreError) {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else {
            throw SQLiteStoreError(code: .cannotOpen, path: path, reason: "no such file")
        }
        do {
            (queue, copy) = (try Self.open(path, as: path), nil)
        } catch  where error.code == .cannotOpen || error.code == .readOnly {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "behaviorkit-\(UUID().uuidString)")
            let copyPath = folder.appendingPathComponent("journal.sqlite").path
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: path, toPath: copyPath)
                if FileManager.default.fileExists(atPath: path + "-wal") {
                    try FileManager.default.copyItem(atPath: path + "-wal", toPath: copyPath + "-wal")
                }
            } catch {
                try? FileManager.default.removeItem(at: folder)
                throw SQLiteStoreError(
                    code: .cannotOpen, path: path, reason: JournalFileInspection.describe(error))
            }
            do {
                (queue, copy) = (try Self.open(copyPath, as: path), folder)
            } catch {
                try? FileManager.default.removeItem(at: folder)
                throw error
            }
        } catch {
            throw error
        }
    }

    deinit {
        try? queue.close()
        if let copy { try? FileManager.default.removeItem(at: copy) }
    }

    private static func open(_ file: String, as path: String) throws(SQLiteStoreError) -> DatabaseQueue {
        do {
            let inspection = try JournalFileInspection(path: file, verification: .quick, busyTimeout: .seconds(10))
            guard [.layout1, .layout2, .applicationDatabase].contains(inspection.layout) else {
                throw SQLiteStoreError(code: .notAJournal, path: file, reason: "it holds no journal table")
            }
            return try ReadOnlyConnection.open(file, busyTimeout: .seconds(10))
        } catch {
            let error = SQLiteStoreError(path: file, error, opening: true)
            throw SQLiteStoreError(code: error.code, path: path, reason: error.reason)
        }
    }

    /// Every record, in sequence order.
    public func allRecords() throws(SQLiteStoreError) -> [CommandJournalRecord] {
        let path = self.path
        do {
            return try queue.read { db in
                let columns = try CommandJournalSchema.columns(db)
                let select =
                    columns.contains("priority")
                    ? CommandJournalSchema.selectColumns
                    : CommandJournalSchema.isLayout2(columns)
                        ? CommandJournalSchema.selectColumnsWithoutPriority
                        : """
                        sequence, key, kind, payload, parentKey, status, failureReason, NULL AS output, NULL AS owner,
                        NULL AS leaseExpiresAt, NULL AS queue, 0 AS attempts, 0 AS createdAt, 0 AS updatedAt
                        """
                return try Row.fetchAll(db, sql: "SELECT \(select) FROM commandRecord ORDER BY sequence").map { row in
                    try CommandJournalSchema.record(row, path: path)
                }
            }
        } catch {
            throw SQLiteStoreError(path: path, error, opening: false)
        }
    }
}
