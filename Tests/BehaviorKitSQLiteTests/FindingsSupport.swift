import Foundation
import GRDB

/// A seeded generator (SplitMix64): the same seed gives the same damage in every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SystemRandomNumberGenerator {
    typealias Seeded = SplitMix64
}

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
