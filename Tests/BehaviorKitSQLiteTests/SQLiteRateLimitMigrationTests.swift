import BehaviorKitSQLite
import BehaviorKitTesting
import Commands
import Foundation
import GRDB
import Testing

/// Rate limits in an application's database: until its migrator adds their tables
/// (`behaviorkit-command-journal-rate-limits`), setting one is refused with a typed error naming
/// the migration, the list is empty and claims go on unlimited; once it ran, limits hold. A
/// journal file made before rate limits gets their tables when it is opened.
struct SQLiteRateLimitMigrationTests {
    let folder: TemporaryFolder
    let lease = JournalLease(owner: "worker", duration: .seconds(60))

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func anApplicationDatabaseWithoutTheMigrationRefusesRateLimitsByName() async throws {
        let application = try MigratedApplicationDatabase(
            path: folder.path("app.sqlite"), upTo: "behaviorkit-command-journal-schedules")
        let journal = application.journal
        let limit = try QueueRateLimit(starts: 1, per: .seconds(60))
        let refusal = try await #require(throws: CommandJournalError.self) {
            try await journal.setRateLimit(limit, queue: "mail", scope: .queue)
        }
        #expect("\(refusal)".contains("behaviorkit-command-journal-rate-limits"), "\(refusal)")
        #expect(try await journal.rateLimits().isEmpty)
        for index in 0..<2 { _ = try await journal.enqueue(entry("m-\(index)"), queue: "mail", after: .zero) }
        #expect(try await journal.claim(1, from: "mail", concurrency: nil, lease: lease).records.count == 1)
        try application.migrateTheRest()
        try await journal.setRateLimit(limit, queue: "mail", scope: .queue)
        #expect(try await journal.rateLimits().map(\.limit) == [limit])
        #expect(try await journal.claim(5, from: "mail", concurrency: nil, lease: lease).records.count == 1)
        #expect(try await journal.claim(5, from: "mail", concurrency: nil, lease: lease).records.isEmpty)
    }

    @Test func aJournalFileMadeBeforeRateLimitsGetsTheirTablesWhenOpened() async throws {
        let path = folder.path("before.journal")
        let first = try SQLiteCommandJournal(path: path)
        _ = try await first.enqueue(entry("m-0"), queue: "mail", after: .zero)
        try await first.close()
        // As the release before left it: no tables of rate limits.
        let pool = try DatabasePool(path: path)
        try await pool.write { db in
            try db.execute(sql: "DROP TABLE commandQueueRateLimit; DROP TABLE commandQueueRateBucket")
        }
        try pool.close()
        let reopened = try SQLiteCommandJournal(path: path)
        try await reopened.setRateLimit(try QueueRateLimit(starts: 2, per: .seconds(1)), queue: "mail", scope: .queue)
        #expect(try await reopened.rateLimits().map(\.queue) == ["mail"])
        #expect(try await reopened.claim(5, from: "mail", concurrency: nil, lease: lease).records.map(\.id) == ["m-0"])
        try await reopened.close()
    }

    func entry(_ key: String) -> CommandJournalEntry { CommandJournalEntry(idempotencyKey: key, kind: "mail.send") }
}
