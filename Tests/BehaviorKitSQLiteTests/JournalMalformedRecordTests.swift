import BehaviorKitSQLite
import Commands
import Foundation
import GRDB
import Testing

/// A record no read could decode is refused when the journal is opened, at both levels of
/// verification and by the reader, naming the record, and the file is left as it was.
struct JournalMalformedRecordTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// A journal of one record, then `sql` run on it behind the journal's back.
    func journal(editedWith sql: String) async throws -> String {
        let path = folder.path("edited.journal")
        let journal = try SQLiteCommandJournal(path: path)
        _ = try await journal.begin(
            CommandJournalEntry(idempotencyKey: "k", kind: "test"), lease: JournalLease(owner: "w", duration: .zero))
        try await journal.close()
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in try db.execute(sql: sql) }
        try queue.close()
        return path
    }

    @Test(arguments: [
        ("UPDATE commandRecord SET status = 'lost'", "record 1 has the unknown status 'lost'"),
        ("UPDATE commandRecord SET createdAt = 'soon'", "record 1 holds a value of a type no journal writes"),
        ("UPDATE commandRecord SET key = x'00'", "record 1 holds a value of a type no journal writes"),
        ("UPDATE commandRecord SET payload = 42", "record 1 holds a value of a type no journal writes"),
    ])
    func aRecordNoReadCouldDecodeIsRefusedAtOpening(_ edit: String, _ reason: String) async throws {
        let path = try await journal(editedWith: edit)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for verification in [SQLiteCommandJournal.Verification.quick, .full] {
            let error = SQLiteJournalIntegrityTests.openingError(path, verification)
            #expect(error?.code == .malformedRecord, "\(verification)")
            #expect(error?.reason == reason, "\(verification): \(String(describing: error))")
        }
        let error = try #require(throws: SQLiteStoreError.self) { try SQLiteCommandJournalReader(path: path) }
        #expect(error.description == "command journal \(path): malformed record (\(reason))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }
}
