import BehaviorKitSQLite
import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// Four schedulers, each on its own connection to one SQLite file (as four processes open it),
/// enqueue every tick once, and a change saved through one is seen by the others.
struct SQLiteSchedulersTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func fourSchedulersOnOneFileEnqueueEachTickOnce() async throws {
        let path = folder.path("schedules.journal")
        let clock = ManualClock()
        var journals: [SQLiteCommandJournal] = []
        for _ in 0..<4 { journals.append(try SQLiteCommandJournal(path: path, clock: clock)) }
        let first = try #require(journals.first)
        _ = try await first.saveSchedule(
            QueueSchedule(
                "minutely", cron: try CronExpression("* * * * *"), timeZone: .gmt, queue: "ticks", kind: "tick"))
        for _ in 1...3 {
            await clock.advance(by: .seconds(60))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for journal in journals {
                    group.addTask {
                        _ = try await QueueScheduler(journal: journal, wallClock: clock, clock: clock).runDue()
                    }
                }
                try await group.waitForAll()
            }
        }
        // Changed at 00:03 through another connection: every second minute, from then on.
        _ = try await journals[3].saveSchedule(
            QueueSchedule(
                "minutely", cron: try CronExpression("*/2 * * * *"), timeZone: .gmt, queue: "ticks", kind: "tick"))
        await clock.advance(by: .seconds(120))
        _ = try await QueueScheduler(journal: journals[1], wallClock: clock, clock: clock).runDue()
        #expect(
            try await first.allRecords().map(\.id) == [
                "minutely@2026-01-01T00:01:00Z", "minutely@2026-01-01T00:02:00Z", "minutely@2026-01-01T00:03:00Z",
                "minutely@2026-01-01T00:04:00Z",
            ])
        for journal in journals { try await journal.close() }
    }
}
