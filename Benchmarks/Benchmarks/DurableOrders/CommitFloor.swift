import Foundation
import GRDB
import Logging
import PostgresNIO

/// One commit's latency on the same storage as the journal, measured by hand in the same run:
/// the floor an order run one at a time is bound by (three steps cost four commits).
enum CommitFloor {
    /// The median time of `count` commits of one small row, each its own transaction.
    static func measure(_ url: String, count: Int) async throws -> Duration {
        if url.hasPrefix("sqlite://") {
            return try sqlite(String(url.dropFirst("sqlite://".count)) + "-floor", count: count)
        }
        return try await postgres(url, count: count)
    }

    private static func median(_ samples: [Duration]) -> Duration {
        samples.sorted()[samples.count / 2]
    }

    /// WAL, `synchronous` FULL, as the journal: one `INSERT` per write transaction, the WAL
    /// flushed at each commit. Set once the pool is open, as the journal sets it: a pool sets
    /// NORMAL when it turns WAL on, after `prepareDatabase` (NORMAL flushes at checkpoints only).
    private static func sqlite(_ path: String, count: Int) throws -> Duration {
        let pool = try DatabasePool(path: path)
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        defer {  // the floor's database is the benchmark's own: it goes when measured
            try? pool.close()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        try pool.write { db in try db.execute(sql: "CREATE TABLE IF NOT EXISTS floor (id INTEGER PRIMARY KEY, v BLOB)")
        }
        var samples: [Duration] = []
        for index in 0..<count {
            let start = ContinuousClock.now
            try pool.write { db in
                try db.execute(sql: "INSERT INTO floor (id, v) VALUES (?, ?)", arguments: [index, Data(count: 64)])
            }
            samples.append(ContinuousClock.now - start)
        }
        return median(samples)
    }

    /// One autocommitted `INSERT` per round trip, on one connection (a Unix socket given as
    /// `?host=` or TCP).
    private static func postgres(_ url: String, count: Int) async throws -> Duration {
        guard let components = URLComponents(string: url) else { throw CocoaError(.fileReadInvalidFileName) }
        let database = String(components.path.dropFirst())
        let user = components.user ?? "postgres"
        let socketFolder = components.queryItems?.first { $0.name == "host" }?.value
        let configuration: PostgresConnection.Configuration =
            if let socketFolder {
                .init(
                    unixSocketPath: socketFolder + "/.s.PGSQL.\(components.port ?? 5432)", username: user,
                    password: components.password, database: database)
            } else {
                .init(
                    host: components.host ?? "localhost", port: components.port ?? 5432, username: user,
                    password: components.password, database: database, tls: .disable)
            }
        let logger = Logger(label: "floor") { _ in SwiftLogNoOpLogHandler() }
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        defer { Task { try? await connection.close() } }
        try await connection.query("CREATE TABLE IF NOT EXISTS floor (id bigint PRIMARY KEY, v bytea)", logger: logger)
        var samples: [Duration] = []
        for index in 0..<count {
            let start = ContinuousClock.now
            try await connection.query(
                "INSERT INTO floor (id, v) VALUES (\(Int64(index)), \(Data(count: 64)))", logger: logger)
            samples.append(ContinuousClock.now - start)
        }
        return median(samples)
    }
}
