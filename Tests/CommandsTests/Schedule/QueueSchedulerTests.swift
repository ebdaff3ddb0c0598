import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// The scheduler's loop on a manual clock: it sleeps until the next tick (or for its poll),
/// enqueues each tick once, and a schedule is listed and removed through its queue.
struct QueueSchedulerTests {
    typealias Report = ScheduleDocSamplesTests.BuildReport

    @Test func theLoopSleepsUntilEachTickAndEnqueuesIt() async throws {
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        let reports = CommandQueue("reports", journal: journal)
        let saved = try await reports.schedule(
            "minutely", cron: "* * * * *", timeZone: .gmt, command: Report(), missedRuns: .catchUp(atMost: 2)
        )
        #expect(saved.nextTick == ManualClock.origin.addingTimeInterval(60))
        let scheduler = QueueScheduler(journal: journal, wallClock: clock, clock: clock, poll: .seconds(30))
        let loop = Task { try await scheduler.run() }
        defer { loop.cancel() }
        for minute in 1...3 {
            await clock.waitForSleepers()
            await clock.advance(by: .seconds(30))
            await clock.waitForSleepers()
            await clock.advance(by: .seconds(30))
            await clock.waitForSleepers()
            let keys = journal.records.map(\.id)
            #expect(keys.count == minute, "\(keys)")
        }
        #expect(
            journal.records.map(\.id) == [
                "minutely@2026-01-01T00:01:00Z", "minutely@2026-01-01T00:02:00Z", "minutely@2026-01-01T00:03:00Z",
            ])
        #expect(journal.records.allSatisfy { $0.queue == "reports" && $0.entry.kind == Report.journalKind })
        #expect(try await reports.schedules().map(\.schedule.name) == ["minutely"])
        #expect(try await reports.unschedule("minutely"))
        #expect(try await reports.schedules().isEmpty)
    }
}
