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

    /// How long a queue's records wait to be picked up, the other half of an operator's chart
    /// (Oban Web's and River UI's queue latency): each record claimed from its queue keeps the
    /// time from when it fell due — its enqueue, or the end of its delay — to that claim; a
    /// takeover keeps the first claim's; a record begun by its caller has none. The activity sums
    /// them per queue and minute, with the longest.
    static func pickupIsKeptPerQueueAndMinute(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "activity(since:) keeps how long each record claimed from its queue waited since it fell due"
        let start = clock.currentDate
        let x = JournalLease(owner: "pickup-x", duration: .seconds(30))
        let y = JournalLease(owner: "pickup-y", duration: .seconds(30))
        func entry(_ key: String) -> CommandJournalEntry {
            CommandJournalEntry(idempotencyKey: key, kind: "pickup", payload: [])
        }
        func claim(_ lease: JournalLease) async throws -> [String] {
            try await journal.claim(8, from: "pickups", concurrency: nil, lease: lease).records.map(\.id)
        }
        // Waits 2 s after its enqueue.
        _ = try await journal.enqueue(entry("now"), queue: "pickups", after: .zero)
        await clock.advance(by: .seconds(2))
        let first = try await claim(x)
        try expect(first == ["now"], check, "the first claim took \(first)")
        try await journal.settle("now", as: .done(output: nil), lease: x)
        // Due 10 s after its enqueue, claimed 3 s after that: 3 s, not 13.
        _ = try await journal.enqueue(entry("delayed"), queue: "pickups", after: .seconds(10))
        await clock.advance(by: .seconds(12))
        // Waits 1 s, then its worker stops: the takeover 30 s later keeps the 1 s.
        _ = try await journal.enqueue(entry("taken-over"), queue: "pickups", after: .zero)
        await clock.advance(by: .seconds(1))
        let second = try await claim(x).sorted()
        try expect(second == ["delayed", "taken-over"], check, "the second claim took \(second)")
        try await journal.settle("delayed", as: .done(output: nil), lease: x)
        await clock.advance(by: .seconds(31))
        let takeover = try await claim(y)
        try expect(takeover == ["taken-over"], check, "the takeover took \(takeover)")
        try await journal.settle("taken-over", as: .done(output: nil), lease: y)
        // Begun on the queue by its caller: never picked up.
        _ = try await journal.begin(entry("begun"), queue: "pickups", lease: x)
        try await journal.settle("begun", as: .done(output: nil), lease: x)

        let minutes = try await journal.activity(since: start).filter { $0.queue == "pickups" }
        let done = minutes.reduce(0) { $0 + $1.done }
        let pickups = minutes.reduce(0) { $0 + $1.pickups }
        let total = minutes.reduce(Int64(0)) { $0 + $1.pickupMilliseconds }
        let longest = minutes.map(\.longestPickupMilliseconds).max() ?? 0
        let found = "\(done) done, \(pickups) pickups, \(total) ms in all, the longest \(longest) ms"
        try expect(
            done == 4 && pickups == 3 && total == 6_000 && longest == 3_000, check,
            "the activity reads \(found), expected 4 done, 3 pickups, 6000 ms in all, the longest 3000 ms")
        let mean = minutes.first { $0.pickups > 0 }?.meanPickup ?? .zero
        try expect(mean > .zero, check, "a minute with pickups has no mean pickup: \(minutes)")
    }
}
