import BehaviorKitSQLite
import Commands
import Testing

/// `enqueue(contentsOf:)` on SQLite hands every job to the group commit at once: whole batches
/// of 1,024, one transaction each, rather than a transaction per job.
struct SQLiteBulkEnqueueTests {
    @Test func aBulkEnqueueCommitsInWholeBatches() async throws {
        let folder = try TemporaryFolder()
        let journal = try SQLiteCommandJournal(path: folder.path("bulk.journal"))
        let queue = CommandQueue("bulk", journal: journal)
        let jobs = try (0..<3_000).map { try QueuedJob(kind: "noop", arguments: $0, key: "job-\($0)") }
        let before = journal.writeCounts
        let records = try await queue.enqueue(contentsOf: jobs)
        let after = journal.writeCounts
        #expect(records.map(\.id) == jobs.map(\.entry.idempotencyKey))
        #expect(after.writes - before.writes == 3_000)
        #expect(after.transactions - before.transactions == 3)  // 1,024 + 1,024 + 952
        #expect(try await journal.queues().first { $0.name == "bulk" }?.due == 3_000)
        try await journal.close()
    }
}
