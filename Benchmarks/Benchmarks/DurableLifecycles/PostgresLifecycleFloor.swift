import Foundation
import Logging
import PostgresNIO

/// The floor on PostgreSQL: per event, read the key's row, then one transaction with a
/// version-checked UPDATE of the snapshot and an INSERT of the history row (again when another
/// writer updated first), on a pool of `concurrency` connections.
enum PostgresLifecycleFloor {
    /// Seconds per event, over `events` events on `keys` keys from `concurrency` tasks.
    static func measure(_ url: String, keys: Int, events: Int, concurrency: Int) async throws -> Double {
        guard let components = URLComponents(string: url) else { throw CocoaError(.fileReadInvalidFileName) }
        let socketFolder = components.queryItems?.first { $0.name == "host" }?.value
        var configuration: PostgresClient.Configuration =
            if let socketFolder {
                .init(
                    unixSocketPath: socketFolder + "/.s.PGSQL.\(components.port ?? 5432)",
                    username: components.user ?? "postgres", password: components.password,
                    database: String(components.path.dropFirst()))
            } else {
                .init(
                    host: components.host ?? "localhost", port: components.port ?? 5432,
                    username: components.user ?? "postgres", password: components.password,
                    database: String(components.path.dropFirst()), tls: .disable)
            }
        configuration.options.maximumConnections = max(1, concurrency)
        let logger = Logger(label: "floor") { _ in SwiftLogNoOpLogHandler() }
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Double.self) { group in
            group.addTask {
                await client.run()
                return 0
            }
            let result = try await run(client, keys: keys, events: events, concurrency: concurrency, logger: logger)
            group.cancelAll()
            return result
        }
    }

    private static func run(
        _ client: PostgresClient, keys: Int, events: Int, concurrency: Int, logger: Logger
    ) async throws -> Double {
        try await client.query(
            "CREATE TABLE floor_instance (key text PRIMARY KEY, version bigint NOT NULL, snapshot bytea NOT NULL)",
            logger: logger)
        try await client.query(
            """
            CREATE TABLE floor_history (key text NOT NULL, sequence bigint NOT NULL, event_id text, body bytea NOT NULL,
                PRIMARY KEY (key, sequence))
            """, logger: logger)
        let snapshot = Data(#"{"state":"placed","context":{"notes":0}}"#.utf8)
        for key in 0..<keys {
            try await client.query(
                "INSERT INTO floor_instance (key, version, snapshot) VALUES (\("k\(key)"), 1, \(snapshot))",
                logger: logger)
        }
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<concurrency {
                group.addTask {
                    for event in stride(from: lane, to: events, by: concurrency) {
                        let key = "k\(keys == 1 ? 0 : (event / 3) % keys)"
                        while true {
                            let rows = try await client.query(
                                "SELECT version, snapshot FROM floor_instance WHERE key = \(key)", logger: logger)
                            var found: (Int64, Data)?
                            for try await (version, body) in rows.decode((Int64, Data).self) { found = (version, body) }
                            guard let (version, body) = found else { return }
                            let updated = try await client.withTransaction(logger: logger) { connection in
                                let changed = try await connection.query(
                                    """
                                    UPDATE floor_instance SET version = \(version + 1), snapshot = \(body)
                                    WHERE key = \(key) AND version = \(version) RETURNING version
                                    """, logger: logger)
                                var count = 0
                                for try await _ in changed.decode(Int64.self) { count += 1 }
                                guard count == 1 else { return false }
                                try await connection.query(
                                    """
                                    INSERT INTO floor_history (key, sequence, event_id, body)
                                    VALUES (\(key), \(version + 1), \("e\(event)"), \(body))
                                    """, logger: logger)
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
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) / Double(events)
    }
}
