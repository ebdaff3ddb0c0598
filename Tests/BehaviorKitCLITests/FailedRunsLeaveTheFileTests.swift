import BehaviorKitSQLite
import Commands
import Foundation
import GRDB
import Testing

/// A run that fails on a journal never changes it: the file's bytes, and whether a WAL and a
/// shared-memory file lie beside it, are as they were.
struct FailedRunsLeaveTheFileTests {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("FailedRunsLeaveTheFileTests-\(UUID().uuidString).sqlite").path

    /// A journal of one finished garage run, then a record no journal writes (an unknown
    /// status), checkpointed into the main file alone.
    func journalWithAMalformedRecord() throws {
        #expect(try CLIRunner.run(["garage", "--journal", path]).exitCode == 0)
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(
                sql: "INSERT INTO commandRecord (key, kind, payload, status) VALUES ('bad', 'garage.log', x'', 'lost')")
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        try queue.close()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    struct FileState: Equatable {
        let bytes: Data
        let companions: [String]
    }

    func state() throws -> FileState {
        FileState(
            bytes: try Data(contentsOf: URL(fileURLWithPath: path)),
            companions: ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) })
    }

    @Test(arguments: [["garage", "--journal"], ["garage", "--fail-api", "--journal"], ["journal"]])
    func aRunThatFailsOnAMalformedRecordLeavesTheFileAsItWas(_ command: [String]) throws {
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try journalWithAMalformedRecord()
        let before = try state()
        let result = try CLIRunner.run(command + [path], timeout: .seconds(60))
        #expect(result.exitCode == 1, "\(result)")
        #expect(result.standardError.contains("record 11 has the unknown status 'lost'"), "\(result.standardError)")
        #expect(try state() == before)
    }
}
