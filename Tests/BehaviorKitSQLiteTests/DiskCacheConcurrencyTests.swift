import BehaviorKitSQLite
import BehaviorKitSync
import Chains
import Foundation
import GRDB
import Testing

/// Several `DiskCache` instances on one file, as several processes (or several parts of one app)
/// would open it. The multi-process test is in `BehaviorKitCLITests` (it launches `behaviorkit`).
struct DiskCacheConcurrencyTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func fourInstancesOnOneFileKeepEveryOneOf400ConcurrentWrites() async throws {
        let path = folder.path("shared.sqlite")
        var caches: [DiskCache<Int, Movie>] = []
        for _ in 0..<4 { caches.append(try DiskCache<Int, Movie>(path: path)) }
        let instances = caches
        let failures = try await withThrowingTaskGroup(of: String?.self) { group in
            for key in 0..<400 {
                group.addTask {
                    let cache = instances[key % instances.count]
                    do {
                        try await cache.store(Movie(id: key, title: "Movie \(key)"), for: key)
                        _ = try await cache.lookup(key)
                        return nil
                    } catch {
                        return "\(error)"
                    }
                }
            }
            var failures: [String] = []
            for try await failure in group { if let failure { failures.append(failure) } }
            return failures
        }
        #expect(failures.isEmpty, "\(failures.count) of 400 failed, the first: \(failures.first ?? "")")
        #expect(try await caches[0].count == 400)
        #expect(try await caches[3].lookup(123) == Movie(id: 123, title: "Movie 123"))
    }
}

/// Another connection holding the file's write lock, as another process would. It waits for
/// the lock itself (a connection without a busy timeout fails at once with "database is
/// locked" on any lock it meets, the cache's included).
private final class LockHolder: Sendable {
    let queue: DatabaseQueue

    init(path: String) throws {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        configuration.busyMode = .timeout(10)
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
    }

    func release() throws {
        try queue.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
    }
}

/// Runs `work`, which may block its thread, on a thread of its own.
private func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// A flag one task sets and another reads.
private final class LockedFlag: Sendable {
    private let flag = LockedValue(false)

    func set() { flag.withLock { $0 = true } }

    var value: Bool { flag.withLock { $0 } }
}

struct DiskCacheLockingTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// The write starts while another connection holds the file and is still waiting 100 ms
    /// later (a write that gave up at once has ended by then), then goes through once the lock
    /// is released. Whatever the scheduling, a write that does not wait fails the test, and
    /// one that waits passes it.
    @Test func aWriteWaitsForAnotherConnectionThatHoldsTheFile() async throws {
        let path = folder.path("held.sqlite")
        let cache = try DiskCache<Int, String>(path: path)
        let holder = try LockHolder(path: path)
        let ended = LockedFlag()
        let write = Task {
            defer { ended.set() }
            try await cache.store("waited", for: 1)
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(!ended.value, "the write ended while the lock was held")
        try holder.release()
        try await write.value
        #expect(try await cache.lookup(1) == "waited")
    }

    /// Opening a cache on a closed file (its WAL empty) while another connection holds it
    /// waits too: no read transaction is upgraded to a write, which SQLite would refuse at once
    /// with "database is locked" whatever the busy timeout.
    @Test func anOpeningWaitsForAnotherConnectionThatHoldsTheFile() async throws {
        let path = folder.path("closed.sqlite")
        do {
            let first = try DiskCache<Int, String>(path: path)
            try await first.store("before", for: 0)
        }
        let holder = try LockHolder(path: path)
        let ended = LockedFlag()
        let opening = Task {
            defer { ended.set() }
            // The opening waits on the lock in the calling thread: on a thread of its own, so that the
            // few threads tasks share stay free for the sleep below (on two cores, an opening and one
            // other blocked test held both, and the lock was released only after the busy timeout).
            let cache = try await onOwnThread { try DiskCache<Int, String>(path: path) }
            try await cache.store("waited", for: 1)
            return cache
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(!ended.value, "the opening ended while the lock was held")
        try holder.release()
        let cache = try await opening.value
        #expect(try await cache.lookup(0) == "before")
        #expect(try await cache.lookup(1) == "waited")
    }

    @Test func aWriteThatWaitsPastTheBusyTimeoutIsAWriteErrorTheLookupCountsAndNames() async throws {
        let path = folder.path("stuck.sqlite")
        let disk = try DiskCache<Int, String>(path: path, busyTimeout: .milliseconds(50))
        let lookup = TieredLookup<Int, String>([disk, LookupSource(name: "source") { "v\($0)" }])
        let holder = try LockHolder(path: path)
        defer { try? holder.release() }
        await #expect(throws: DiskCacheError.self) { try await disk.store("x", for: 2) }
        // The lookup still answers; the failed write-back is counted and named.
        _ = try? await lookup.value(for: 1)
        let statistics = lookup.statistics.tiers[0]
        #expect(statistics.writeErrors == 1)
        #expect(statistics.lastWriteError == "disk cache \(path): database is locked")
    }
}

struct DiskCacheFolderTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func creatingFolderMakesTheFoldersAboveTheFile() async throws {
        let path = folder.path("a/b/c/cache.sqlite")
        let cache = try DiskCache<Int, String>(path: path, creatingFolder: true)
        try await cache.store("x", for: 1)
        #expect(FileManager.default.fileExists(atPath: path))
        _ = try DiskCache<Int, String>(path: path, creatingFolder: true)  // existing folders are fine
    }

    @Test func aFileInTheWayOfTheFolderIsNamed() throws {
        try Data().write(to: URL(fileURLWithPath: folder.path("file")))
        let path = folder.path("file/sub/cache.sqlite")
        let error = try #require(throws: DiskCacheError.self) {
            try DiskCache<Int, String>(path: path, creatingFolder: true)
        }
        #expect(error.code == .folderUnavailable)
        #expect(error.folder == folder.path("file/sub"))
        #expect(
            error.description
                == "disk cache folder \(folder.path("file/sub")) cannot be created: \(folder.path("file")) is a file, not a folder"
        )
    }

    @Test func aFolderWhereTheFileShouldBeIsNamed() throws {
        let path = folder.path("cache.sqlite")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let error = try #require(throws: DiskCacheError.self) { try DiskCache<Int, String>(path: path) }
        #expect(error.code == .cannotOpen)
        #expect(error.description == "disk cache \(path): cannot open the file (\(path) is a folder)")
    }

    @Test func aMissingFolderIsNamedWhenNotCreated() throws {
        let path = folder.path("missing/cache.sqlite")
        let error = try #require(throws: DiskCacheError.self) { try DiskCache<Int, String>(path: path) }
        #expect(
            error.description
                == "disk cache \(path): cannot open the file (the folder \(folder.path("missing")) does not exist)")
    }
}
