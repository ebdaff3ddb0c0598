import BehaviorKitSQLite
import Commands
import Foundation
import GRDB
import Testing

/// A key index that holds as many entries as there are records, one of them under another
/// key: `quick_check` and a count of entries see nothing, and the record's key is free for a
/// second record, a double execution. Opening refuses the file.
struct JournalKeyIndexTests {
    let folder: TemporaryFolder
    let lease = JournalLease(owner: "w", duration: .seconds(30))

    init() throws {
        folder = try TemporaryFolder()
    }

    /// A journal of the keys k0000, k0002, … k0098, whose key index has k0005 where k0004
    /// was: still in order, still 50 entries, but record 3 is no longer found by its key.
    func journalWhoseKeyIndexLostARecord() async throws -> String {
        let path = folder.path("lost-key.journal")
        let journal = try SQLiteCommandJournal(path: path)
        for number in stride(from: 0, to: 100, by: 2) {
            let key = "k" + String(repeating: "0", count: 4 - String(number).count) + String(number)
            _ = try await journal.begin(CommandJournalEntry(idempotencyKey: key, kind: "test"), lease: lease)
        }
        try await journal.close()
        let queue = try DatabaseQueue(path: path)
        let (pageSize, root) = try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            let root = try Int.fetchOne(
                db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_commandRecord_1'")
            return (pageSize, root ?? 0)
        }
        try queue.close()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let page = (root - 1) * pageSize..<root * pageSize
        let found = try #require(bytes.range(of: Data("k0004".utf8), in: page))
        bytes.replaceSubrange(found, with: Data("k0005".utf8))
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aKeyIndexEntryUnderAnotherKeyIsFoundByEveryVerification() async throws {
        let path = try await journalWhoseKeyIndexLostARecord()
        let quick = try await DatabaseQueue(path: path).read { db in try String.fetchAll(db, sql: "PRAGMA quick_check")
        }
        #expect(quick == ["ok"], "quick_check alone sees nothing wrong")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for verification in [SQLiteCommandJournal.Verification.quick, .full] {
            let error = SQLiteJournalIntegrityTests.openingError(path, verification)
            #expect(error?.code == .corrupt, "\(verification)")
            #expect(
                error?.reason.contains("missing from index sqlite_autoindex_commandRecord_1") == true,
                "\(verification): \(String(describing: error))")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "the file is left as it is")
        #expect(throws: SQLiteStoreError.self) { try SQLiteCommandJournalReader(path: path) }
    }
}
