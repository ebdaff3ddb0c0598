import Foundation

/// The files of a SQLite database in WAL mode: the database and its `-wal` and `-shm` files.
package enum SQLiteFiles {
    /// Removes the database at `path` and its WAL and shared-memory files, where they exist: a
    /// fresh start for a fleet's journal, store or ledger.
    package static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
