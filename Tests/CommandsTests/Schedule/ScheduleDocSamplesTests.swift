import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// The schedule sample of the "Durable work" article, as written there but for the journal (in
/// memory here) and the scheduler's clocks (the test's).
struct ScheduleDocSamplesTests {
    struct BuildReport: JournaledCommand {
        static let journalKind = "reports.build"
        var name: String { "build the nightly report" }
        func execute() async throws {}
        func undo() async throws {}
    }

    @Test func theArticlesScheduleCatchesUpOnTheLatestThreeNights() async throws {
        let clock = ManualClock()  // 1 January 2026, 00:00 UTC
        let journal = InMemoryCommandJournal(clock: clock)
        let reports = CommandQueue("reports", journal: journal)

        let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt
        try await reports.schedule(
            "nightly-report", cron: "30 2 * * *", timeZone: berlin, command: BuildReport(),
            missedRuns: .catchUp(atMost: 3))
        let scheduler = QueueScheduler(journal: journal, wallClock: clock, clock: clock)

        // Five nights without a scheduler: the latest three run, oldest first (02:30 CET is 01:30 UTC).
        await clock.advance(by: .seconds(5 * 86_400))
        try await scheduler.runDue()
        #expect(
            journal.records.map(\.id) == [
                "nightly-report@2026-01-03T01:30:00Z", "nightly-report@2026-01-04T01:30:00Z",
                "nightly-report@2026-01-05T01:30:00Z",
            ])
        // The next run: 6 January, 01:30 UTC.
        #expect(try await reports.schedules().first?.nextTick == Date(timeIntervalSince1970: 1_767_663_000))
    }
}
