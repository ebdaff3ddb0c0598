public import Chains
import Foundation
import GRDB

/// A cache tier on disk, in one SQLite file: it survives a restart, keeps at most a given size
/// (least recently used entries go first), and never crashes on a bad file.
///
/// Keys and values are stored as JSON. Every read marks the entry as used, so eviction is
/// least-recently-used across restarts too. A file that is corrupt or not SQLite at all gives a
/// ``DiskCacheError`` naming the path, or is deleted and rebuilt empty when you allow it.
///
/// ```swift
/// let disk = try DiskCache<Int, Movie>(path: "Caches/movies.sqlite", sizeLimit: 10 << 20, ifUnreadable: .rebuild)
/// try await disk.store(movie, for: 42)
/// try await disk.lookup(42)   // movie, in this run or the next
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
    /// Whether opening found an unreadable file and rebuilt it.
    public let wasRebuilt: Bool

    private let database: DatabaseQueue

    /// Opens the cache at `path`, creating the file when it does not exist.
    ///
    /// - Parameters:
    ///   - path: the SQLite file; its folder must exist.
    ///   - name: the tier's name in statistics, `disk` by default.
    ///   - sizeLimit: the most bytes of encoded values kept (50 MiB by default).
    ///   - countLimit: the most entries kept, or `nil`.
    ///   - ifUnreadable: what to do with a file that is not a readable SQLite database.
    /// - Throws: ``DiskCacheError`` naming `path`.
    public init(
        path: String, name: String = "disk", sizeLimit: Int = 50 << 20, countLimit: Int? = nil,
        ifUnreadable: UnreadableFilePolicy = .fail
    ) throws(DiskCacheError) {
        self.name = name
        self.path = path
        self.sizeLimit = sizeLimit
        self.countLimit = countLimit
        do {
            self.database = try Self.open(path)
            self.wasRebuilt = false
        } catch let error where error.code == .unreadable && ifUnreadable == .rebuild {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
            self.database = try Self.open(path)
            self.wasRebuilt = true
        }
    }

    private static func open(_ path: String) throws(DiskCacheError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        }
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            try database.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            try DiskCacheSchema.migrator().migrate(database)
            return database
        } catch {
            throw DiskCacheError(path: path, opening: error)
        }
    }

    /// The value for `key`, marked as the most recently used; `nil` when absent, or when the stored
    /// value no longer decodes as `Value` (the entry is then removed).
    ///
    /// - Throws: ``DiskCacheError`` naming the file when it cannot be read.
    public func lookup(_ key: Key) async throws -> Value? {
        let keyData = try encode(key)
        let data = try await perform { db -> Data? in
            guard
                let data = try Data.fetchOne(
                    db, sql: "SELECT value FROM cacheEntry WHERE key = ?", arguments: [keyData])
            else { return nil }
            try db.execute(
                sql: "UPDATE cacheEntry SET accessed = \(DiskCacheSchema.nextAccess) WHERE key = ?",
                arguments: [keyData])
            return data
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
    /// - Throws: ``DiskCacheError`` naming the file when it cannot be written.
    public func store(_ value: Value, for key: Key) async throws {
        let keyData = try encode(key)
        let valueData = try encode(value)
        let (sizeLimit, countLimit) = (self.sizeLimit, self.countLimit)
        try await perform { db in
            try db.execute(
                sql: """
                    INSERT INTO cacheEntry (key, value, size, accessed) VALUES (?, ?, ?, \(DiskCacheSchema.nextAccess))
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value, size = excluded.size, accessed = excluded.accessed
                    """,
                arguments: [keyData, valueData, valueData.count])
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

    /// Removes every entry.
    public func removeAll() async throws(DiskCacheError) {
        try await perform { db in try db.execute(sql: "DELETE FROM cacheEntry") }
    }

    /// The number of entries.
    public var count: Int {
        get async throws(DiskCacheError) {
            try await perform { db in try Int.fetchOne(db, sql: "SELECT count FROM cacheTotals") ?? 0 }
        }
    }

    /// The bytes of stored values.
    public var totalSize: Int {
        get async throws(DiskCacheError) {
            try await perform { db in try Int.fetchOne(db, sql: "SELECT size FROM cacheTotals") ?? 0 }
        }
    }

    /// The keys, most recently used first.
    public var keys: [Key] {
        get async throws(DiskCacheError) {
            let data = try await perform { db in
                try Data.fetchAll(db, sql: "SELECT key FROM cacheEntry ORDER BY accessed DESC")
            }
            return data.compactMap { try? JSONDecoder().decode(Key.self, from: $0) }
        }
    }

    private func perform<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(DiskCacheError) -> T {
        do {
            return try await database.write(body)
        } catch {
            throw DiskCacheError(path: path, using: error)
        }
    }

    private func encode(_ value: some Encodable) throws(DiskCacheError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            return try encoder.encode(value)
        } catch {
            throw DiskCacheError(code: .encodingFailed, path: path, reason: "\(error)")
        }
    }
}
