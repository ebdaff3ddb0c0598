import BehaviorKitSQLite
import Benchmark
import Commands
import Foundation
import GRDB

// Durable appends to the SQLite command journal (WAL, synchronous FULL), 64 tasks at a time,
// beside the floor: the same appends, one transaction and one flush each, written by hand on
// GRDB in the same run. Every sample does 1,000 appends (scalingFactor .kilo): figures read per
// append.

let appends = 1_000
let tasks = 64

/// Unique keys across samples, so that every append inserts a row.
final class KeySource: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0

    func take(_ count: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let first = next
        next += count
        return first
    }
}

func temporaryPath(_ name: String) -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("JournalBenchmarks-\(UUID())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent(name).path
}

/// Runs `append(index)` for `appends` indices spread over `tasks` concurrent tasks.
func fanOut(_ append: @escaping @Sendable (Int) async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for task in 0..<tasks {
            group.addTask {
                for index in stride(from: task, to: appends, by: tasks) { try await append(index) }
            }
        }
        try await group.waitForAll()
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput], scalingFactor: .kilo, maxDuration: .seconds(5), maxIterations: 30)

    let payload = Array(#"{"order":42,"cents":990}"#.utf8)

    // The journal: appends from 64 tasks share transactions and flushes (group commit).
    Benchmark("Journal.append64") { benchmark in
        let journal = try SQLiteCommandJournal(path: temporaryPath("journal.sqlite"))
        let keys = KeySource()
        benchmark.startMeasurement()
        let first = keys.take(appends)
        try await fanOut { index in
            _ = try await journal.append(
                CommandJournalEntry(idempotencyKey: "k\(first + index)", kind: "bank.charge", payload: payload))
        }
        benchmark.stopMeasurement()
    }

    // Floor: the same rows from the same 64 tasks, one write transaction (one WAL flush) each.
    Benchmark("Journal.append64.floor") { benchmark in
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let database = try DatabasePool(path: temporaryPath("floor.sqlite"), configuration: configuration)
        try await database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(
                sql: """
                    CREATE TABLE commandRecord (
                        sequence INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
                        payload BLOB NOT NULL, parentKey TEXT, status TEXT NOT NULL, failureReason TEXT)
                    """)
        }
        let keys = KeySource()
        let data = Data(payload)
        benchmark.startMeasurement()
        let first = keys.take(appends)
        try await fanOut { index in
            try await database.write { db in
                try db.execute(
                    sql: "INSERT INTO commandRecord (key, kind, payload, status) VALUES (?, ?, ?, 'pending')",
                    arguments: ["k\(first + index)", "bank.charge", data])
            }
        }
        benchmark.stopMeasurement()
    }
}
