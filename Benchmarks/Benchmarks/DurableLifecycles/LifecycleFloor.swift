import Foundation
import GRDB

/// The same commits as a durable machine's, written by hand: per event, read the key's row,
/// then one write transaction with a version-checked UPDATE of the snapshot and an INSERT of
/// the history row (again when another writer updated first).
enum LifecycleFloor {
    /// Seconds per event, over `events` events on `keys` keys from `concurrency` tasks.
    static func sqlite(_ path: String, keys: Int, events: Int, concurrency: Int) async throws -> Double {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let pool = try DatabasePool(path: path, configuration: configuration)
        // FULL once the pool is open: a pool sets NORMAL when it turns WAL on, after `prepareDatabase`.
        try await pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        defer {  // the floor's database is the benchmark's own: it goes when measured
            try? pool.close()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        try await pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE instance (key TEXT PRIMARY KEY, version INTEGER NOT NULL, snapshot BLOB NOT NULL);
                    CREATE TABLE history (key TEXT NOT NULL, sequence INTEGER NOT NULL, eventID TEXT, body BLOB NOT NULL,
                        PRIMARY KEY (key, sequence));
                    """)
            for key in 0..<keys {
                try db.execute(
                    sql: "INSERT INTO instance (key, version, snapshot) VALUES (?, 1, ?)",
                    arguments: ["k\(key)", Data(#"{"state":"placed","context":{"notes":0}}"#.utf8)])
            }
        }
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<concurrency {
                group.addTask {
                    for event in stride(from: lane, to: events, by: concurrency) {
                        let key = "k\(keys == 1 ? 0 : (event / 3) % keys)"
                        while true {
                            let row = try pool.read { db in
                                try Row.fetchOne(
                                    db, sql: "SELECT version, snapshot FROM instance WHERE key = ?", arguments: [key])
                            }
                            guard let row else { return }
                            let version: Int64 = row["version"]
                            let snapshot: Data = row["snapshot"]
                            let updated = try await pool.write { db in
                                try db.execute(
                                    sql: "UPDATE instance SET version = ?, snapshot = ? WHERE key = ? AND version = ?",
                                    arguments: [version + 1, snapshot, key, version])
                                guard db.changesCount == 1 else { return false }
                                try db.execute(
                                    sql: "INSERT INTO history (key, sequence, eventID, body) VALUES (?, ?, ?, ?)",
                                    arguments: [key, version + 1, "e\(event)", snapshot])
                                return true
                            }
                            if updated { break }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = ContinuousClock.now - start
        try pool.close()
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) / Double(events)
    }
}
