import BehaviorKitSQLite
import Commands
import Foundation
import Testing

/// `behaviorkit journal schedules`, as a user runs it on a SQLite journal.
struct JournalSchedulesCommandTests {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("JournalSchedulesCommandTests-\(UUID().uuidString).sqlite").path

    /// A clock stopped at noon UTC on 7 March 2026, the day before New York moves its clocks forward.
    struct StoppedClock: WallClock {
        var currentDate: Date { Date(timeIntervalSince1970: 1_772_884_800) }
    }

    func removeJournal() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test func schedulesListsEachWithItsNextRun() async throws {
        defer { removeJournal() }
        let journal = try SQLiteCommandJournal(path: path, clock: StoppedClock())
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        _ = try await journal.saveSchedule(
            QueueSchedule(
                "nightly-report", cron: try CronExpression("30 2 * * *"), timeZone: newYork, queue: "reports",
                kind: "report.build", missedRuns: .catchUp(atMost: 3)))
        try await journal.close()
        let listed = try CLIRunner.run(["journal", "schedules", path])
        #expect(listed.exitCode == 0)
        // 02:30 does not exist in New York on 8 March: the run is at 03:00 EDT, 07:00 UTC.
        #expect(
            listed.standardOutput == """
                nightly-report  30 2 * * *  America/New_York  queue reports  next 2026-03-08T07:00:00.000Z  \
                missed runs: catch up at most 3
                1 schedule

                """)
        let json = try CLIRunner.run(["journal", "schedules", path, "--format", "json"])
        let answer = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
        #expect(answer?.first?["nextTick"] as? String == "2026-03-08T07:00:00.000Z")
        #expect(answer?.first?["timeZone"] as? String == "America/New_York")
        #expect(answer?.first?["revision"] as? Int == 1)
    }
}
