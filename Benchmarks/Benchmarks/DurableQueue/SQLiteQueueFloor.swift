import Foundation
import GRDB

/// The queue a team would write by hand on SQLite, measured beside `QueueWorker.run()` in the same
/// run: the floor the journal's drain is held to. One table; enqueue is one `INSERT` per job in one
/// transaction (the bulk path); a worker claims 16 due jobs in one write transaction (`UPDATE …
/// RETURNING`, WAL, `synchronous` FULL as the journal), "runs" them (no work) and marks them done in
/// a second one, until none is left. No leases, fencing, retries, attempts or traces: what is left
/// is SQLite's own cost of a claim and a settlement.
enum SQLiteQueueFloor {
    static func open(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let pool = try DatabasePool(path: path, configuration: configuration)
        // FULL once the pool is open: a pool sets NORMAL when it turns WAL on, after `prepareDatabase`.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS job (id INTEGER PRIMARY KEY, payload BLOB NOT NULL,
                        status INTEGER NOT NULL DEFAULT 0, owner INTEGER);
                    CREATE INDEX IF NOT EXISTS job_due ON job (status, id);
                    """)
        }
        return pool
    }

    /// `count` jobs in one transaction: jobs/s.
    static func enqueue(_ path: String, count: Int) throws -> String {
        let pool = try open(path)
        let start = ContinuousClock.now
        try pool.write { db in
            let insert = try db.makeStatement(sql: "INSERT INTO job (payload) VALUES (?)")
            for _ in 0..<count { try insert.execute(arguments: [Data(count: 16)]) }
        }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        return "floor enqueue n=\(count) one transaction: \(Int(Double(count) / seconds)) jobs/s"
    }

    /// Drains the table 16 jobs a claim; prints the line `queue-side-by-side.sh` reads (`lastjob=`).
    static func work(_ path: String, startAt: Double) throws -> String {
        let pool = try open(path)
        let owner = Int(ProcessInfo.processInfo.processIdentifier)
        let wait = startAt - Date().timeIntervalSince1970
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        let first = Date().timeIntervalSince1970
        var settled = 0
        var lastJob = first
        while true {
            let claimed = try pool.write { db in
                try Int64.fetchAll(
                    db,
                    sql: """
                        UPDATE job SET status = 1, owner = ? WHERE id IN
                            (SELECT id FROM job WHERE status = 0 ORDER BY id LIMIT 16) RETURNING id
                        """, arguments: [owner])
            }
            if claimed.isEmpty { break }
            try pool.write { db in
                let ids = claimed.map(String.init).joined(separator: ",")
                try db.execute(sql: "UPDATE job SET status = 2 WHERE id IN (\(ids))")
            }
            settled += claimed.count
            lastJob = Date().timeIntervalSince1970
        }
        let last = Date().timeIntervalSince1970
        return String(
            format: "floor drain slots=16 settled=%d first=%.6f last=%.6f lastjob=%.6f", settled, first, last, lastJob)
    }
}
