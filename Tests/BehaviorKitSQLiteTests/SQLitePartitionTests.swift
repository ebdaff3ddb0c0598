import BehaviorKitSQLite
import Commands
import Foundation
import Testing

/// Partitions in an application's database: until its migrator adds them
/// (`behaviorkit-command-journal-partitions`), an enqueue in a partition and a claim under a
/// limit per partition are refused with a typed error naming the migration, rather than the
/// partition dropped or the limit exceeded.
struct SQLitePartitionTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func anApplicationDatabaseWithoutThePartitionsMigrationRefusesPartitions() async throws {
        let application = try MigratedApplicationDatabase(
            path: folder.path("app.sqlite"), upTo: "behaviorkit-command-journal-pauses")
        let journal = application.journal
        let entry = CommandJournalEntry(idempotencyKey: "export-7", kind: "export")
        let enqueue = try await #require(throws: CommandJournalError.self) {
            try await journal.enqueue(
                entry, queue: "reports", after: .zero, priority: 0, partition: "tenant-7", traceContext: nil)
        }
        #expect("\(enqueue)".contains("behaviorkit-command-journal-partitions"), "\(enqueue)")
        _ = try await journal.enqueue(entry, queue: "reports", after: .zero)
        let lease = JournalLease(owner: "w", duration: .seconds(30))
        let claim = try await #require(throws: CommandJournalError.self) {
            try await journal.claim(1, from: "reports", concurrency: nil, perPartition: 2, lease: lease)
        }
        #expect("\(claim)".contains("behaviorkit-command-journal-partitions"), "\(claim)")
        try application.migrateTheRest()
        let claimed = try await journal.claim(1, from: "reports", concurrency: nil, perPartition: 2, lease: lease)
        #expect(claimed.records.map(\.id) == ["export-7"])
    }
}
