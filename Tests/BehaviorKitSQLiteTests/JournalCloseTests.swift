import BehaviorKitSQLite
import Commands
import Foundation
import GRDB
import Testing

/// Closing a journal that owns its file checkpoints the WAL into it: the main file alone,
/// copied without its WAL, holds every record.
struct JournalCloseTests {
    let folder: TemporaryFolder
    let lease = JournalLease(owner: "w", duration: .seconds(30))

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func afterCloseTheMainFileAloneHoldsEveryRecord() async throws {
        let path = folder.path("closed.journal")
        let journal = try SQLiteCommandJournal(path: path)
        // Another connection keeps the file open, as another process would: SQLite's own
        // checkpoint when the last connection closes does not happen.
        let other = try DatabaseQueue(path: path, configuration: JournalCloseTests.readOnly)
        for index in 0..<20 {
            let key = "k\(index)"
            _ = try await journal.begin(CommandJournalEntry(idempotencyKey: key, kind: "test"), lease: lease)
            try await journal.settle(key, as: .done(output: nil), lease: lease)
        }
        try await journal.close()
        let copy = folder.path("copy.journal")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try other.close()
        let records = try SQLiteCommandJournalReader(path: copy).allRecords()
        #expect(records.count == 20)
        #expect(records.allSatisfy { $0.status == .done })
    }

    static var readOnly: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        return configuration
    }
}
