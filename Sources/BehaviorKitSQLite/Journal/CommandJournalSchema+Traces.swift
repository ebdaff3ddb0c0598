import Commands
import Foundation
import GRDB

/// The trace context a queued record carries from the caller that enqueued it to the worker that
/// claims it (``CommandJournalRecord/traceContext``): one row per key that has one, beside the
/// record, written in the enqueue's transaction and read in the claim's.
extension CommandJournalSchema {
    static let createTraces = """
        CREATE TABLE IF NOT EXISTS commandTrace (
            key TEXT PRIMARY KEY NOT NULL,
            context TEXT NOT NULL
        ) WITHOUT ROWID;
        """

    /// Keeps `context` for the new record `key`. In an application's database whose migrator
    /// has not added the table yet, the context is not kept (the record is still enqueued).
    static func keepTrace(_ context: [String: String]?, of key: String, _ db: Database) throws {
        guard let context, !context.isEmpty, try db.tableExists("commandTrace") else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(context), as: UTF8.self)
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO commandTrace (key, context) VALUES (?, ?)")
            .execute(arguments: [key, text])
    }

    /// `records` with the trace contexts kept for them. A context that does not decode is left
    /// out: a trace is never a reason for a claim to fail.
    static func withTraces(_ records: [CommandJournalRecord], _ db: Database) throws -> [CommandJournalRecord] {
        guard !records.isEmpty, try db.tableExists("commandTrace") else { return records }
        let statement = try db.cachedStatement(sql: "SELECT context FROM commandTrace WHERE key = ?")
        return try records.map { record in
            guard let text = try String.fetchOne(statement, arguments: [record.id]) else { return record }
            var traced = record
            traced.traceContext = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
            return traced
        }
    }

    /// Deletes the contexts whose records are gone.
    static func pruneTraces(_ db: Database) throws {
        guard try db.tableExists("commandTrace") else { return }
        try db.cachedStatement(
            sql: "DELETE FROM commandTrace WHERE key NOT IN (SELECT key FROM commandRecord)"
        ).execute()
    }
}
