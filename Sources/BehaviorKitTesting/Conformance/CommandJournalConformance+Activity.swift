import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CommandJournalConformance {
    /// What an operator's chart of a queue shows (Oban Web's and Sidekiq's "processed / failed
    /// per minute"): the journal counts, per queue and minute, the records settled done and
    /// failed and the attempts that failed and were retried.
    static func activityIsCountedPerQueueAndMinute(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "activity(since:) counts per queue and minute the records done, failed, and the retried attempts"
        let start = clock.currentDate
        let minute = Date(timeIntervalSince1970: (start.timeIntervalSince1970 / 60).rounded(.down) * 60)
        let policy = RetryPolicy(maxAttempts: 2, initialDelay: .seconds(1), multiplier: 1, jitter: 0)
        let effects = ConformanceEffects()
        let worker = retryingWorker(journal, clock, effects, policy)
        for name in ["ok-1", "ok-2", "~1flaky", "!broken"] {
            _ = try await journal.enqueue(effects.entry(name), queue: "q", after: .zero)
        }
        _ = try await journal.enqueue(effects.entry("later"), queue: "q", after: .seconds(3_600))
        _ = try await journal.enqueue(effects.entry("other"), queue: "elsewhere", after: .zero)
        try await worker.runDue()
        await clock.advance(by: .seconds(1))
        try await worker.runDue()  // the retries: "~1flaky" is done, "!broken" fails for good
        let elsewhere = QueueWorker(
            CommandQueue("elsewhere", journal: journal),
            invoker: JournaledInvoker(journal: journal, registry: effects.registry, owner: "other", clock: clock))
        try await elsewhere.runDue()
        await clock.advance(by: .seconds(120))
        _ = try await journal.enqueue(effects.entry("ok-3"), queue: "q", after: .zero)
        try await worker.runDue()

        let activity = try await journal.activity(since: start)
        let rows = activity.map {
            "\($0.queue) +\(Int($0.minute.timeIntervalSince(minute)))s: \($0.done)/\($0.failed)/\($0.retried)"
        }
        let expected = [
            "elsewhere +0s: 1/0/0",
            "q +0s: 3/1/2",
            "q +\(Int(clock.currentDate.timeIntervalSince(minute)) / 60 * 60)s: 1/0/0",
        ]
        try expect(rows == expected, check, "the activity reads \(rows), expected \(expected)")
        let recent = try await journal.activity(since: clock.currentDate.addingTimeInterval(-30)).map(\.done)
        try expect(recent == [1], check, "since 30 s ago, the activity's done counts read \(recent)")
    }
}
