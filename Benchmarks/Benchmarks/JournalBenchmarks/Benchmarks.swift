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

/// The temporary folders this process made and has not removed yet: each sample removes its own, and the
/// teardown after every benchmark (its own process) removes what is left, the 1,000,000-record journal among them.
final class TemporaryFolders: @unchecked Sendable {
    private let lock = NSLock()
    private var folders: Set<String> = []

    /// A new folder, remembered until ``remove(_:)`` or ``removeAll()``.
    func make() -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("JournalBenchmarks-\(UUID())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        lock.lock()
        defer { lock.unlock() }
        folders.insert(folder)
        return folder
    }

    /// Deletes `folder` (which ``make()`` gave) and everything in it.
    func remove(_ folder: String) {
        lock.lock()
        let known = folders.remove(folder) != nil
        lock.unlock()
        if known { try? FileManager.default.removeItem(atPath: folder) }
    }

    func removeAll() {
        lock.lock()
        let all = folders
        folders = []
        lock.unlock()
        for folder in all { try? FileManager.default.removeItem(atPath: folder) }
    }
}

let temporaryFolders = TemporaryFolders()

/// A path named `name` in a new temporary folder (`temporaryFolders` removes it).
func temporaryPath(_ name: String) -> String {
    (temporaryFolders.make() as NSString).appendingPathComponent(name)
}

/// Removes the temporary folder holding `path`, once its database is closed.
func removeTemporaryFolder(of path: String) {
    temporaryFolders.remove((path as NSString).deletingLastPathComponent)
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
    Benchmark.teardown = { temporaryFolders.removeAll() }
    openBenchmarks()
    managementBenchmarks()
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput], scalingFactor: .kilo, maxDuration: .seconds(5), maxIterations: 30)

    let payload = Array(#"{"order":42,"cents":990}"#.utf8)

    // The journal: new records begun from 64 tasks share transactions and flushes (group commit).
    Benchmark("Journal.append64") { benchmark in
        let path = temporaryPath("journal.sqlite")
        let journal = try SQLiteCommandJournal(path: path)
        let lease = JournalLease(owner: "benchmark", duration: .seconds(3600))
        let keys = KeySource()
        benchmark.startMeasurement()
        let first = keys.take(appends)
        try await fanOut { index in
            _ = try await journal.begin(
                CommandJournalEntry(idempotencyKey: "k\(first + index)", kind: "bank.charge", payload: payload),
                lease: lease)
        }
        benchmark.stopMeasurement()
        try await journal.close()
        removeTemporaryFolder(of: path)
    }

    // Floor: the same rows from the same 64 tasks, one write transaction (one WAL flush) each.
    Benchmark("Journal.append64.floor") { benchmark in
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let path = temporaryPath("floor.sqlite")
        let database = try DatabasePool(path: path, configuration: configuration)
        try await database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(
                sql: """
                    CREATE TABLE commandRecord (
                        sequence INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
                        payload BLOB NOT NULL, parentKey TEXT, status TEXT NOT NULL, failureReason TEXT, output BLOB,
                        owner TEXT, leaseExpiresAt INTEGER, queue TEXT, attempts INTEGER NOT NULL DEFAULT 0,
                        createdAt INTEGER NOT NULL DEFAULT 0, updatedAt INTEGER NOT NULL DEFAULT 0);
                    CREATE INDEX commandRecordPending ON commandRecord(sequence) WHERE status = 'pending';
                    CREATE INDEX commandRecordParent ON commandRecord(parentKey, sequence) WHERE parentKey IS NOT NULL;
                    CREATE INDEX commandRecordOpen ON commandRecord(queue, leaseExpiresAt)
                        WHERE status = 'pending' AND parentKey IS NULL;
                    """)
        }
        let keys = KeySource()
        let data = Data(payload)
        benchmark.startMeasurement()
        let first = keys.take(appends)
        try await fanOut { index in
            try await database.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO commandRecord (key, kind, payload, status, owner, leaseExpiresAt, attempts, createdAt,
                            updatedAt)
                        VALUES (?, ?, ?, 'pending', 'benchmark', 0, 1, 0, 0)
                        """,
                    arguments: ["k\(first + index)", "bank.charge", data])
            }
        }
        benchmark.stopMeasurement()
        try database.close()
        removeTemporaryFolder(of: path)
    }
}

/// A journal of 1,000,000 settled records (250,000 transactions of three steps), made once.
let millionRecordJournal: String = {
    let path = temporaryPath("million.sqlite")
    do {
        _ = try SQLiteCommandJournal(path: path)
        let database = try DatabaseQueue(path: path)
        try database.write { db in
            let payload = Data(#"{"order":42,"cents":990}"#.utf8)
            let statement = try db.makeStatement(
                sql: """
                    INSERT INTO commandRecord (key, kind, payload, parentKey, status, createdAt, updatedAt)
                    VALUES (?, ?, ?, ?, 'done', 1, 1)
                    """)
            for index in 0..<1_000_000 {
                let order = "order-\(index / 4)"
                let step = index % 4
                try statement.execute(arguments: [
                    step == 0 ? order : "\(order)/\(step - 1)", "bank.charge", payload, step == 0 ? nil : order,
                ])
            }
        }
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    } catch {
        print("could not make the 1,000,000-record journal: \(error)")
    }
    return path
}()

let openBenchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock], scalingFactor: .one, maxDuration: .seconds(30), maxIterations: 5)

    // Opening a journal of 1,000,000 records: the checks before any write.
    Benchmark("Journal.open1M.quick", configuration: configuration) { _ in
        blackHole(try SQLiteCommandJournal(path: millionRecordJournal, verification: .quick))
    }
    Benchmark("Journal.open1M.full", configuration: configuration) { _ in
        blackHole(try SQLiteCommandJournal(path: millionRecordJournal, verification: .full))
    }

    // Floor: what the journal checked at open before, SQLite's quick_check alone.
    Benchmark("Journal.open1M.floor", configuration: configuration) { _ in
        let database = try DatabaseQueue(path: millionRecordJournal)
        blackHole(try database.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") })
    }
}
