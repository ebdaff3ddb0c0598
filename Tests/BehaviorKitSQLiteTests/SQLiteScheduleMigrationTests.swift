import BehaviorKitSQLite
import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// Schedules in an application's database: until its migrator adds their table
/// (`behaviorkit-command-journal-schedules`), saving one is refused with a typed error naming
/// the migration and the list is empty; once it ran, the journal passes the schedule checks.
struct SQLiteScheduleMigrationTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func anApplicationDatabaseWithoutTheSchedulesMigrationRefusesSchedules() async throws {
        let application = try MigratedApplicationDatabase(
            path: folder.path("app.sqlite"), upTo: "behaviorkit-command-journal-partitions")
        let journal = application.journal
        let schedule = QueueSchedule(
            "nightly", cron: try CronExpression("@daily"), timeZone: .gmt, queue: "reports", kind: "report")
        let refusal = try await #require(throws: CommandJournalError.self) { try await journal.saveSchedule(schedule) }
        #expect("\(refusal)".contains("behaviorkit-command-journal-schedules"), "\(refusal)")
        #expect(try await journal.schedules().isEmpty)
        try application.migrateTheRest()
        let saved = try await journal.saveSchedule(schedule)
        #expect(try await journal.schedules() == [saved])
    }

    @Test func anApplicationDatabaseWithTheMigrationsPassesTheScheduleChecks() async throws {
        let counter = FileCounter()
        try await CommandJournalConformance.checkSchedules { clock in
            try MigratedApplicationDatabase(path: folder.path("app-\(counter.next()).sqlite"), clock: clock).journal
        }
    }
}
