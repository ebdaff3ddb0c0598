import Foundation
import GRDB

/// The world the fleet's orders act on: a SQLite file shared by every worker process, where a
/// step's effect is a row keyed by its idempotency key (so that running a step twice changes
/// nothing), and every execution of a step or a compensation is logged with its worker and its
/// start and end, for the checks.
///
/// It is a partner that fences: it keeps, per order, the greatest fencing token it saw, and
/// refuses (and counts) every execution of an attempt with a smaller one, in the same write —
/// as a payment service would, given ``DurableContext/fencingToken``.
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
                        attempt INTEGER NOT NULL, kind TEXT NOT NULL, started INTEGER NOT NULL, ended INTEGER,
                        refused INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE IF NOT EXISTS fence (root TEXT PRIMARY KEY, token INTEGER NOT NULL);
                    """)
        }
    }

    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// What the ledger answers an attempt whose token is smaller than one it saw for the order.
    struct StaleToken: Error, CustomStringConvertible {
        let key: String, token: Int
        var description: String { "the ledger refused \(key) from the stale attempt \(token)" }
    }

    /// One execution: its row, and the fence it runs under.
    struct Execution {
        let id: Int64, root: String, token: Int
    }

    /// Logs the start of an execution of `kind` ("run" or "undo") on `key` by the attempt whose
    /// fencing token is `token`, and raises the order's fence to it.
    ///
    /// - Throws: ``StaleToken`` (the execution is logged refused) when the order saw a greater token.
    func start(_ kind: String, key: String, root: String, worker: String, token: Int) async throws -> Execution {
        let id = try await write { db -> Int64 in
            try db.execute(
                sql: "INSERT INTO execution (key, root, worker, attempt, kind, started) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [key, root, worker, token, kind, Self.now()])
            let id = db.lastInsertedRowID
            try Self.fence(root, token, execution: id, db)
            return try Self.refused(id, db) ? -1 : id
        }
        if id < 0 { throw StaleToken(key: key, token: token) }
        return Execution(id: id, root: root, token: token)
    }

    /// Raises the fence of `root` to `token`, or, when it stands higher, marks `execution` refused.
    private static func fence(_ root: String, _ token: Int, execution: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO fence (root, token) VALUES (?, ?)
                ON CONFLICT (root) DO UPDATE SET token = excluded.token WHERE excluded.token >= fence.token
                """, arguments: [root, token])
        if db.changesCount == 0 {
            try db.execute(
                sql: "UPDATE execution SET refused = 1, ended = ? WHERE id = ?", arguments: [now(), execution])
        }
    }

    /// Whether `execution` was refused by the fence, after `fence` ran on it.
    private static func refused(_ execution: Int64, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT refused FROM execution WHERE id = ?", arguments: [execution]) ?? false
    }

    /// Applies the effect of `key` (once, whatever the number of calls) and ends the execution,
    /// unless the order saw a greater token meanwhile.
    ///
    /// - Throws: ``StaleToken``, and then nothing changed.
    func apply(_ key: String, value: String, ending execution: Execution) async throws {
        let refused = try await write { db -> Bool in
            try Self.fence(execution.root, execution.token, execution: execution.id, db)
            if try Self.refused(execution.id, db) { return true }
            try db.execute(sql: "INSERT OR IGNORE INTO effect (key, value) VALUES (?, ?)", arguments: [key, value])
            try db.execute(sql: "UPDATE execution SET ended = ? WHERE id = ?", arguments: [Self.now(), execution.id])
            return false
        }
        if refused { throw StaleToken(key: key, token: execution.token) }
    }

    /// Removes the effect of `key`, notes the payment a refund received, and ends the execution,
    /// unless the order saw a greater token meanwhile.
    ///
    /// - Throws: ``StaleToken``, and then nothing changed.
    func undo(_ key: String, payment: String?, ending execution: Execution) async throws {
        let refused = try await write { db -> Bool in
            try Self.fence(execution.root, execution.token, execution: execution.id, db)
            if try Self.refused(execution.id, db) { return true }
            try db.execute(sql: "DELETE FROM effect WHERE key = ?", arguments: [key])
            if let payment {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO refund (key, payment) VALUES (?, ?)", arguments: [key, payment])
            }
            try db.execute(sql: "UPDATE execution SET ended = ? WHERE id = ?", arguments: [Self.now(), execution.id])
            return false
        }
        if refused { throw StaleToken(key: key, token: execution.token) }
    }

    /// Ends the execution without an effect (a step that failed: the partner refused it),
    /// unless the order saw a greater token meanwhile.
    ///
    /// - Throws: ``StaleToken``.
    func end(_ execution: Execution) async throws {
        let refused = try await write { db -> Bool in
            try Self.fence(execution.root, execution.token, execution: execution.id, db)
            if try Self.refused(execution.id, db) { return true }
            try db.execute(sql: "UPDATE execution SET ended = ? WHERE id = ?", arguments: [Self.now(), execution.id])
            return false
        }
        if refused { throw StaleToken(key: "\(execution.root) (a refusal)", token: execution.token) }
    }

    /// Notes something a step saw that must never happen.
    func anomaly(_ text: String) async throws {
        try await write { db in try db.execute(sql: "INSERT INTO anomaly (text) VALUES (?)", arguments: [text]) }
    }

    /// Runs `body` in a write transaction on a thread of its own: eight processes share the
    /// file, and a write that waits for the lock (SQLite's busy handler sleeps up to 100 ms at a
    /// time) must not hold one of the concurrency pool's threads — on 2 cores there are two, and
    /// the lease heartbeat needs one.
    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { [database] in
                continuation.resume(with: Result { try database.write(body) })
            }
        }
    }

    struct LoggedExecution {
        let key: String, root: String, worker: String, attempt: Int, kind: String, started: Int64, ended: Int64?
        let refused: Bool
    }

    struct Contents {
        var effects: [String: String] = [:]
        var refunds: [String: String] = [:]
        var anomalies: [String] = []
        var executions: [LoggedExecution] = []
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
                db, sql: "SELECT key, root, worker, attempt, kind, started, ended, refused FROM execution ORDER BY id"
            ).map {
                LoggedExecution(
                    key: $0["key"], root: $0["root"], worker: $0["worker"], attempt: $0["attempt"], kind: $0["kind"],
                    started: $0["started"], ended: $0["ended"], refused: $0["refused"])
            }
            contents.integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            return contents
        }
    }
}
