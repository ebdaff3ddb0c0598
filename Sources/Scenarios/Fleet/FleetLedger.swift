import Foundation
import GRDB

/// The world the fleet's orders act on: a SQLite file shared by every worker process, where a
/// step's effect is a row keyed by its idempotency key (so that running a step twice changes
/// nothing), and every execution of a step or a compensation is logged with its worker and its
/// start and end, for the checks.
final class FleetLedger: Sendable {
    let path: String
    private let database: DatabasePool

    init(path: String) throws {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        database = try DatabasePool(path: path, configuration: configuration)
        try database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS effect (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE IF NOT EXISTS refund (key TEXT PRIMARY KEY, payment TEXT);
                    CREATE TABLE IF NOT EXISTS anomaly (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
                    CREATE TABLE IF NOT EXISTS execution (
                        id INTEGER PRIMARY KEY, key TEXT NOT NULL, root TEXT NOT NULL, worker TEXT NOT NULL,
                        attempt INTEGER NOT NULL, kind TEXT NOT NULL, started INTEGER NOT NULL, ended INTEGER);
                    """)
        }
    }

    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// Logs the start of an execution of `kind` ("run" or "undo") on `key`; returns its id.
    func start(_ kind: String, key: String, root: String, worker: String, attempt: Int) throws -> Int64 {
        try database.write { db in
            try db.execute(
                sql: "INSERT INTO execution (key, root, worker, attempt, kind, started) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [key, root, worker, attempt, kind, Self.now()])
            return db.lastInsertedRowID
        }
    }

    /// Applies the effect of `key` (once, whatever the number of calls) and ends execution `id`.
    func apply(_ key: String, value: String, ending id: Int64) throws {
        try database.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO effect (key, value) VALUES (?, ?)", arguments: [key, value])
            try db.execute(sql: "UPDATE execution SET ended = ? WHERE id = ?", arguments: [Self.now(), id])
        }
    }

    /// Removes the effect of `key`, notes the payment a refund received, and ends execution `id`.
    func undo(_ key: String, payment: String?, ending id: Int64) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM effect WHERE key = ?", arguments: [key])
            if let payment {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO refund (key, payment) VALUES (?, ?)", arguments: [key, payment])
            }
            try db.execute(sql: "UPDATE execution SET ended = ? WHERE id = ?", arguments: [Self.now(), id])
        }
    }

    /// Ends execution `id` without an effect (a step that failed).
    func end(_ id: Int64) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE execution SET ended = ? WHERE id = ?", arguments: [Self.now(), id])
        }
    }

    /// Notes something a step saw that must never happen.
    func anomaly(_ text: String) throws {
        try database.write { db in try db.execute(sql: "INSERT INTO anomaly (text) VALUES (?)", arguments: [text]) }
    }

    struct Execution {
        let key: String, root: String, worker: String, attempt: Int, kind: String, started: Int64, ended: Int64?
    }

    struct Contents {
        var effects: [String: String] = [:]
        var refunds: [String: String] = [:]
        var anomalies: [String] = []
        var executions: [Execution] = []
        var integrity: [String] = []
    }

    /// Everything in the ledger, for the checks.
    func contents() throws -> Contents {
        try database.read { db in
            var contents = Contents()
            for row in try Row.fetchAll(db, sql: "SELECT key, value FROM effect") {
                contents.effects[row["key"]] = row["value"]
            }
            for row in try Row.fetchAll(db, sql: "SELECT key, payment FROM refund") {
                contents.refunds[row["key"]] = row["payment"]
            }
            contents.anomalies = try String.fetchAll(db, sql: "SELECT text FROM anomaly ORDER BY id")
            contents.executions = try Row.fetchAll(
                db, sql: "SELECT key, root, worker, attempt, kind, started, ended FROM execution ORDER BY id"
            ).map {
                Execution(
                    key: $0["key"], root: $0["root"], worker: $0["worker"], attempt: $0["attempt"], kind: $0["kind"],
                    started: $0["started"], ended: $0["ended"])
            }
            contents.integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            return contents
        }
    }
}
