import BehaviorKitSQLite
import BehaviorKitTesting
import Commands
import Foundation
import GRDB
import Testing

/// Pickup times in an application's database: until its migrator adds their column
/// (`behaviorkit-command-journal-pickups`), claims go on and the activity keeps no pickup; once
/// it ran, each claim from the queue keeps one. A journal file made before pickups gets the
/// column when it is opened.
struct SQLitePickupMigrationTests {
    let folder: TemporaryFolder
    let lease = JournalLease(owner: "worker", duration: .seconds(60))

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func anApplicationDatabaseWithoutTheMigrationClaimsAndKeepsNoPickup() async throws {
        let clock = ManualClock()
        let application = try MigratedApplicationDatabase(
            path: folder.path("app.sqlite"), upTo: "behaviorkit-command-journal-rate-limits", clock: clock)
        let journal = application.journal
        _ = try await journal.enqueue(entry("before"), queue: "mail", after: .zero)
        await clock.advance(by: .seconds(2))
        #expect(
            try await journal.claim(1, from: "mail", concurrency: nil, lease: lease).records.map(\.id) == ["before"])
        try await journal.settle("before", as: .done(output: nil), lease: lease)
        #expect(try await journal.activity(since: .distantPast).map(\.pickups) == [0])
        try application.migrateTheRest()
        _ = try await journal.enqueue(entry("after"), queue: "mail", after: .zero)
        await clock.advance(by: .seconds(3))
        #expect(try await journal.claim(1, from: "mail", concurrency: nil, lease: lease).records.map(\.id) == ["after"])
        try await journal.settle("after", as: .done(output: nil), lease: lease)
        let activity = try await journal.activity(since: .distantPast)
        #expect(activity.map(\.pickups) == [1] && activity.map(\.longestPickupMilliseconds) == [3_000], "\(activity)")
    }

    @Test func aJournalFileMadeBeforePickupsGetsTheColumnWhenOpened() async throws {
        let path = folder.path("before.journal")
        let clock = ManualClock()
        let first = try SQLiteCommandJournal(path: path, clock: clock)
        _ = try await first.enqueue(entry("m-0"), queue: "mail", after: .zero)
        try await first.close()
        // As the release before left it: no column of pickups.
        let pool = try DatabasePool(path: path)
        try await pool.write { db in try db.execute(sql: "ALTER TABLE commandRecord DROP COLUMN pickupMilliseconds") }
        try pool.close()
        let reopened = try SQLiteCommandJournal(path: path, clock: clock)
        await clock.advance(by: .seconds(1))
        #expect(try await reopened.claim(5, from: "mail", concurrency: nil, lease: lease).records.map(\.id) == ["m-0"])
        try await reopened.settle("m-0", as: .done(output: nil), lease: lease)
        #expect(try await reopened.activity(since: .distantPast).map(\.longestPickupMilliseconds) == [1_000])
        try await reopened.close()
    }

    func entry(_ key: String) -> CommandJournalEntry { CommandJournalEntry(idempotencyKey: key, kind: "mail.send") }
}
