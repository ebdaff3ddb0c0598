public import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Schedules: kept in the journal, added, changed and removed at run time; a tick is enqueued
/// once however many schedulers run it at once; the ticks missed in a gap follow the schedule's
/// `MissedTimerPolicy`. The clock starts at `ManualClock.origin`, 2026-01-01 00:00 UTC.
extension CommandJournalConformance {
    /// Runs the schedule checks alone (``check(_:)`` runs them with the rest), each on a new
    /// journal from `makeJournal`: for a journal in an application's database, say, once its
    /// migrator added the schedules.
    public static func checkSchedules(
        _ makeJournal: (ManualClock) async throws -> any CommandJournalManagement
    ) async throws {
        try await run(scheduleChecks, makeJournal)
    }

    static var scheduleChecks: [Check] {
        [
            aTickRunsOnceAcrossFourSchedulers, aChangedScheduleTakesEffect, aRemovedScheduleStops,
            missedRunsFollowTheirPolicy,
        ]
    }

    static func schedule(
        _ name: String, _ cron: String, queue: String = "scheduled", missedRuns: MissedTimerPolicy = .fire
    ) throws -> QueueSchedule {
        QueueSchedule(
            name, cron: try CronExpression(cron), timeZone: .gmt, queue: queue, kind: "test.tick",
            payload: Array(name.utf8), missedRuns: missedRuns)
    }

    /// The keys of the records enqueued on `queue`, in sequence order.
    /// Checks that the records of the queue "scheduled" are `expected`, in order.
    static func expectScheduledKeys(
        _ journal: any CommandJournalManagement, _ expected: [String], _ check: String
    ) async throws {
        let keys = try await scheduledKeys(journal)
        try expect(keys == expected, check, "enqueued \(keys)")
    }

    static func scheduledKeys(
        _ journal: any CommandJournalManagement, queue: String = "scheduled"
    ) async throws -> [String] {
        try await journal.allRecords().filter { $0.queue == queue }.map(\.id)
    }

    /// One pass of `count` schedulers at once.
    static func runSchedulers(_ count: Int, _ journal: any CommandJournalManagement, _ clock: ManualClock) async throws
    {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<count {
                group.addTask {
                    _ = try await QueueScheduler(journal: journal, wallClock: clock, clock: clock).runDue()
                }
            }
            try await group.waitForAll()
        }
    }

    /// Moves the last tick of `name` at `revision` from the minute `fromMinute` after the origin to `toMinute`.
    static func advance(
        _ journal: any CommandJournalManagement, _ name: String, revision: Int64, fromMinute: Int, toMinute: Int
    ) async throws -> Bool {
        try await journal.advanceSchedule(
            named: name, revision: revision, from: ManualClock.origin.addingTimeInterval(Double(fromMinute * 60)),
            to: ManualClock.origin.addingTimeInterval(Double(toMinute * 60)))
    }

    static func aTickRunsOnceAcrossFourSchedulers(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a tick is enqueued once across four schedulers running at once"
        let saved = try await journal.saveSchedule(try schedule("minutely", "* * * * *"))
        try expect(
            saved.revision == 1 && saved.lastTick == nil && saved.savedAt == ManualClock.origin, check,
            "a new schedule was kept as \(saved)")
        try await runSchedulers(4, journal, clock)
        try expect(try await scheduledKeys(journal).isEmpty, check, "a tick was enqueued before it fell due")
        await clock.advance(by: .seconds(60))
        try await runSchedulers(4, journal, clock)
        let first = try await scheduledKeys(journal)
        try expect(first == ["minutely@2026-01-01T00:01:00Z"], check, "after the first minute, enqueued \(first)")
        let kept = try await journal.schedules()
        try expect(
            kept.map(\.lastTick) == [ManualClock.origin.addingTimeInterval(60)], check,
            "the last tick is \(kept.map(\.lastTick))")
        await clock.advance(by: .seconds(60))
        try await runSchedulers(4, journal, clock)
        let second = try await scheduledKeys(journal)
        try expect(
            second == ["minutely@2026-01-01T00:01:00Z", "minutely@2026-01-01T00:02:00Z"], check,
            "after two minutes, enqueued \(second)")
        let claimed = try await journal.claim(10, from: "scheduled", concurrency: nil, lease: lease)
        try expect(claimed.records.count == 2, check, "claimed \(claimed.records.map(\.id))")
        try expect(
            claimed.records.allSatisfy { $0.entry.kind == "test.tick" && $0.entry.payload == Array("minutely".utf8) },
            check, "a tick's record does not carry the schedule's command: \(claimed.records)")
    }

    static func aChangedScheduleTakesEffect(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws
    {
        let check = "a changed schedule takes effect at the next pass, its ticks counting from the change"
        _ = try await journal.saveSchedule(try schedule("report", "0 * * * *"))
        await clock.advance(by: .seconds(3_600))
        try await runSchedulers(1, journal, clock)
        let changed = try await journal.saveSchedule(try schedule("report", "*/10 * * * *"))
        try expect(
            changed.revision == 2 && changed.lastTick == nil
                && changed.savedAt == ManualClock.origin.addingTimeInterval(3_600), check,
            "the changed schedule was kept as \(changed)")
        // A scheduler that read the schedule before the change cannot move its last tick.
        let stale = try await advance(journal, "report", revision: 1, fromMinute: 60, toMinute: 120)
        try expect(!stale, check, "a last tick was moved at a revision the schedule no longer has")
        await clock.advance(by: .seconds(600))
        try await runSchedulers(1, journal, clock)
        try await expectScheduledKeys(journal, ["report@2026-01-01T01:00:00Z", "report@2026-01-01T01:10:00Z"], check)
        let listed = try await journal.schedules()
        try expect(
            listed.map(\.schedule.cron.expression) == ["*/10 * * * *"] && listed.map(\.revision) == [2]
                && listed.map(\.nextTick) == [ManualClock.origin.addingTimeInterval(4_800)], check,
            "listed \(listed)")
    }

    static func aRemovedScheduleStops(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws {
        let check = "a removed schedule enqueues no more ticks; the ticks enqueued stay"
        _ = try await journal.saveSchedule(try schedule("gone", "* * * * *"))
        _ = try await journal.saveSchedule(try schedule("kept", "* * * * *"))
        await clock.advance(by: .seconds(60))
        try await runSchedulers(1, journal, clock)
        try expect(try await journal.removeSchedule(named: "gone"), check, "removing the schedule answered false")
        try expect(!(try await journal.removeSchedule(named: "gone")), check, "removing it twice answered true")
        let listed = try await journal.schedules().map(\.schedule.name)
        try expect(listed == ["kept"], check, "after the removal, listed \(listed)")
        let moved = try await advance(journal, "gone", revision: 1, fromMinute: 1, toMinute: 2)
        try expect(!moved, check, "the removed schedule's last tick was moved")
        await clock.advance(by: .seconds(300))
        try await runSchedulers(2, journal, clock)
        try await expectScheduledKeys(
            journal, ["gone@2026-01-01T00:01:00Z", "kept@2026-01-01T00:01:00Z", "kept@2026-01-01T00:06:00Z"], check)
    }

    static func missedRunsFollowTheirPolicy(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws
    {
        let check = "after a gap, the ticks missed fire once, are skipped when late, or catch up at most N"
        for (name, policy) in [
            ("fire", MissedTimerPolicy.fire), ("skip", .skip(lateBy: .seconds(300))),
            ("skip-all", .skip(lateBy: .seconds(60))), ("catch-up", .catchUp(atMost: 3)),
        ] {
            _ = try await journal.saveSchedule(try schedule(name, "*/10 * * * *", queue: name, missedRuns: policy))
        }
        // No scheduler for an hour and two minutes: the ticks of 00:10 to 01:00 were missed.
        await clock.advance(by: .seconds(3_720))
        try await runSchedulers(2, journal, clock)
        let expected = [
            "fire": ["fire@2026-01-01T01:00:00Z"], "skip": ["skip@2026-01-01T01:00:00Z"], "skip-all": [],
            "catch-up": [
                "catch-up@2026-01-01T00:40:00Z", "catch-up@2026-01-01T00:50:00Z", "catch-up@2026-01-01T01:00:00Z",
            ],
        ]
        for (name, keys) in expected {
            let found = try await scheduledKeys(journal, queue: name)
            try expect(found == keys, check, "\(name): after the gap, enqueued \(found), expected \(keys)")
        }
        let lastTicks = try await journal.schedules().map(\.lastTick)
        try expect(
            lastTicks == Array(repeating: Optional(ManualClock.origin.addingTimeInterval(3_600)), count: 4), check,
            "after the gap, the last ticks are \(lastTicks)")
        // Back on time: every policy fires the next tick.
        await clock.advance(by: .seconds(480))
        try await runSchedulers(2, journal, clock)
        for (name, keys) in expected {
            let found = try await scheduledKeys(journal, queue: name)
            try expect(
                found == keys + ["\(name)@2026-01-01T01:10:00Z"], check, "\(name): on time again, enqueued \(found)")
        }
    }
}
