public import Chains
import Foundation
import GRDB

/// A cache tier on disk, in one SQLite file: it survives a restart, keeps at most a given size
/// (least recently used entries go first), can expire entries by age, is shared by several
/// instances and processes, and never crashes on a bad file.
///
/// Keys and values are stored as JSON. Every read marks the entry as used, so eviction is
/// least-recently-used across restarts too. Every read and write is one immediate transaction;
/// when another instance or process holds the file, it waits for it up to `busyTimeout`. A file
/// that is corrupt or not SQLite at all gives a ``DiskCacheError`` naming the path, or is
/// deleted and rebuilt empty when you allow it.
///
/// ```swift
/// let disk = try DiskCache<Int, Movie>(
///     path: "Caches/movies.sqlite", sizeLimit: 10 << 20, timeToLive: .seconds(86_400), ifUnreadable: .rebuild,
///     creatingFolder: true)
/// try await disk.store(movie, for: 42)
/// try await disk.lookup(42)   // movie, in this run or the next, for a day
/// ```
public final class DiskCache<Key: Hashable & Sendable & Codable, Value: Sendable & Codable>: LookupStore, Sendable {
    /// What to do with a file that exists but is not a readable SQLite database.
    public enum UnreadableFilePolicy: Sendable {
        /// Throw ``DiskCacheError`` with code `.unreadable`, and leave the file alone.
        case fail
        /// Delete the file and start an empty cache in its place.
        case rebuild
    }

    /// The tier's name in statistics and errors.
    public let name: String
    /// The cache's file.
    public let path: String
    /// The most bytes of stored values kept.
    public let sizeLimit: Int
    /// The most entries kept, or `nil` for no count limit.
    public let countLimit: Int?
    /// How long after it is stored an entry expires, or `nil` for never.
    public let timeToLive: Duration?
    /// Whether opening found an unreadable file and rebuilt it.
    public let wasRebuilt: Bool

    let database: DatabaseQueue
    let clock: WallClockReader

    /// Opens the cache at `path`, creating the file when it does not exist.
    ///
    /// - Parameters:
    ///   - path: the SQLite file.
    ///   - name: the tier's name in statistics, `disk` by default.
    ///   - sizeLimit: the most bytes of encoded values kept (50 MiB by default).
    ///   - countLimit: the most entries kept, or `nil`.
    ///   - timeToLive: how long after it is stored an entry expires (across restarts too), or
    ///     `nil` for never. A change applies to the entries already stored.
    ///   - busyTimeout: how long a read or write waits for another instance or process that
    ///     holds the file before it fails.
    ///   - ifUnreadable: what to do with a file that is not a readable SQLite database.
    ///   - creatingFolder: whether to create the file's folder (and those above it) when missing.
    ///   - clock: the clock ages are measured on, from the wall-clock time the cache is opened.
    /// - Throws: ``DiskCacheError`` naming `path`, or its folder when it cannot be created.
    public init(
        path: String, name: String = "disk", sizeLimit: Int = 50 << 20, countLimit: Int? = nil,
        timeToLive: Duration? = nil, busyTimeout: Duration = .seconds(10), ifUnreadable: UnreadableFilePolicy = .fail,
        creatingFolder: Bool = false, clock: some Clock<Duration> = ContinuousClock()
    ) throws(DiskCacheError) {
        self.name = name
        self.path = path
        self.sizeLimit = sizeLimit
        self.countLimit = countLimit
        self.timeToLive = timeToLive
        self.clock = WallClockReader(clock)
        if creatingFolder { try Self.createFolder(of: path) }
        do {
            self.database = try Self.open(path, busyTimeout: busyTimeout)
            self.wasRebuilt = false
        } catch let error where error.code == .unreadable && ifUnreadable == .rebuild {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
            self.database = try Self.open(path, busyTimeout: busyTimeout)
            self.wasRebuilt = true
        }
    }

    /// The value for `key`, marked as the most recently used; `nil` when absent, expired (the
    /// entry is then removed), or when the stored value no longer decodes as `Value` (removed
    /// too).
    ///
    /// - Throws: ``DiskCacheError`` naming the file when it cannot be read.
    public func lookup(_ key: Key) async throws -> Value? {
        let keyData = try encode(key)
        let expiredBefore = timeToLive.map { clock.milliseconds(before: $0) }
        let data = try await perform { db -> Data? in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT value, written FROM cacheEntry WHERE key = ?", arguments: [keyData])
            else { return nil }
            if let expiredBefore, (row["written"] as Int64) <= expiredBefore {
                try db.execute(sql: "DELETE FROM cacheEntry WHERE key = ?", arguments: [keyData])
                return nil
            }
            try db.execute(
                sql: "UPDATE cacheEntry SET accessed = \(DiskCacheSchema.nextAccess) WHERE key = ?",
                arguments: [keyData])
            return row["value"]
        }
        guard let data else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            // Written by another version of the value type: stale, so a miss.
            try await remove(key)
            return nil
        }
    }

    /// Stores `value` for `key` as the most recently used entry, then evicts the least recently
    /// used entries while the size or count limit is passed.
    ///
    /// - Throws: ``DiskCacheError`` naming the file when it cannot be written (a full disk, a
    ///   read-only file, another process holding it past the busy timeout).
    public func store(_ value: Value, for key: Key) async throws {
        let keyData = try encode(key)
        let valueData = try encode(value)
        let (sizeLimit, countLimit, written) = (self.sizeLimit, self.countLimit, clock.milliseconds)
        try await perform { db in
            try db.execute(
                sql: """
                    INSERT INTO cacheEntry (key, value, size, accessed, written)
                    VALUES (?, ?, ?, \(DiskCacheSchema.nextAccess), ?)
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value, size = excluded.size,
                        accessed = excluded.accessed, written = excluded.written
                    """,
                arguments: [keyData, valueData, valueData.count, written])
            try DiskCacheSchema.evict(db, sizeLimit: sizeLimit, countLimit: countLimit)
        }
    }

    /// Removes the entry for `key`, if any.
    ///
    /// - Throws: ``DiskCacheError`` naming the file when it cannot be written.
    public func remove(_ key: Key) async throws {
        let keyData = try encode(key)
        try await perform { db in try db.execute(sql: "DELETE FROM cacheEntry WHERE key = ?", arguments: [keyData]) }
    }

    /// Runs `body` in an immediate transaction: it takes the write lock at once, waiting for
    /// other connections up to the busy timeout, so that it never fails half-way for a lock.
    func perform<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(DiskCacheError) -> T {
        do {
            return try await database.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw DatabaseError(resultCode: .SQLITE_ABORT, message: "rolled back") }
                return result
            }
        } catch {
            throw DiskCacheError(path: path, using: error)
        }
    }

    func encode(_ value: some Encodable) throws(DiskCacheError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            return try encoder.encode(value)
        } catch {
            throw DiskCacheError(code: .encodingFailed, path: path, reason: "\(error)")
        }
    }
}
