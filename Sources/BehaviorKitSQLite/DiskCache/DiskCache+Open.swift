import Foundation
import GRDB

extension DiskCache {
    /// Opens (or creates) the database at `path` and brings its schema up to date, in one
    /// immediate transaction so that instances opening it together do not race.
    ///
    /// A file that several processes open at once is switched to WAL by the first while the
    /// others read it: a reader that would then have to upgrade its lock gets "database is
    /// locked" at once, whatever the busy timeout (SQLite refuses rather than risk a deadlock).
    /// Opening is tried again then, until the busy timeout has passed.
    static func open(_ path: String, busyTimeout: Duration) throws(DiskCacheError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(max(0, Double(busyTimeout.milliseconds) / 1_000))
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        do {
            return try retryingWhileBusy(for: busyTimeout) {
                let database = try DatabaseQueue(path: path, configuration: configuration)
                try database.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
                try database.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        try DiskCacheSchema.prepare(db)
                        return .commit
                    }
                }
                return database
            }
        } catch {
            throw DiskCacheError(path: path, opening: error)
        }
    }

    /// Creates the folder of `path` and the folders above it, naming what is in the way.
    static func createFolder(of path: String) throws(DiskCacheError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var current = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            current += "/" + component
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: current, isDirectory: &isFolder) {
                guard isFolder.boolValue else {
                    throw DiskCacheError(
                        code: .folderUnavailable, path: path, reason: "\(current) is a file, not a folder")
                }
                continue
            }
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                let reason = String(cString: strerror(errno))
                throw DiskCacheError(
                    code: .folderUnavailable, path: path, reason: "cannot create \(current): \(reason)")
            }
        }
    }
}
