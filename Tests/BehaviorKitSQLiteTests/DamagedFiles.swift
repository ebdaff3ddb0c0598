import Foundation
import GRDB

/// Another application's database, with writes still in its WAL.
enum ForeignDatabase {
    /// Creates a WAL database at `path` whose tables are not a journal's, and returns while its
    /// WAL still holds the writes (the connection stays open until the caller copied the WAL).
    static func withWAL<T>(at path: String, _ body: () throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.journalMode = .wal
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "CREATE TABLE photo (id INTEGER PRIMARY KEY, caption TEXT)")
            for index in 0..<200 {
                try db.execute(sql: "INSERT INTO photo (caption) VALUES (?)", arguments: ["photo \(index)"])
            }
        }
        return try withExtendedLifetime(queue) { try body() }
    }
}
