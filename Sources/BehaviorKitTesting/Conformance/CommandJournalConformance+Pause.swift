import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Pausing a queue: a paused queue starts nothing (not its due records, nor those whose
/// worker stopped), other queues go on, callers still enqueue, the work in flight renews and
/// settles as usual, and a resume makes the queue's records claimable again and wakes its
/// sleeping workers at once.
extension CommandJournalConformance {
    static var pauseChecks: [Check] {
        [aPausedQueueStartsNothing, workInFlightSettlesWhilePaused, resumingWakesTheQueuesWorkers]
    }

    static func aPausedQueueStartsNothing(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws {
        let check = "a paused queue starts nothing; other queues go on; enqueueing still works"
        let paused = CommandQueue("paused", journal: journal)
        let elsewhere = CommandQueue("other", journal: journal)
        _ = try await paused.enqueue(entry("p-1"))
        _ = try await elsewhere.enqueue(entry("o-1"))
        // A record whose worker stopped: its lease ends while the queue is paused.
        _ = try await paused.enqueue(entry("p-stopped"), priority: 1)
        let stopped = try await journal.claim(1, from: "paused", concurrency: nil, lease: lease)
        try expect(stopped.records.map(\.id) == ["p-stopped"], check, "before the pause, claimed \(stopped.records)")
        try await paused.pause()
        try await paused.pause()
        try expect(try await paused.isPaused(), check, "the queue does not say it is paused")
        let pausedQueues = try await journal.pausedQueues()
        try expect(pausedQueues == ["paused"], check, "the paused queues are \(pausedQueues)")
        _ = try await paused.enqueue(entry("p-2"))
        try expect(
            try await journal.record(forKey: "p-2")?.status == .pending, check, "an enqueue while paused was not kept")
        await clock.advance(by: .seconds(60))
        let none = try await journal.claim(10, from: "paused", concurrency: nil, lease: other)
        try expect(none.records.isEmpty, check, "a claim from the paused queue took \(none.records.map(\.id))")
        try expect(
            none.nextDue == nil, check,
            "a claim from the paused queue answered a next due time \(String(describing: none.nextDue))")
        let taken = try await journal.claim(
            10, from: "paused", concurrency: nil, takingOverFrom: lease.owner, lease: other)
        try expect(taken.records.isEmpty, check, "taking over a stopped worker took \(taken.records.map(\.id))")
        let others = try await journal.claim(10, from: "other", concurrency: nil, lease: other)
        try expect(others.records.map(\.id) == ["o-1"], check, "the other queue's claim took \(others.records)")
        try await paused.resume()
        try expect(!(try await paused.isPaused()), check, "the queue says it is paused after its resume")
        let resumed = try await journal.claim(10, from: "paused", concurrency: nil, lease: other)
        try expect(
            Set(resumed.records.map(\.id)) == ["p-stopped", "p-1", "p-2"], check,
            "after the resume, claimed \(resumed.records.map(\.id))")
    }

    static func workInFlightSettlesWhilePaused(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "the work claimed before a pause renews and settles while the queue is paused"
        let queue = CommandQueue("q", journal: journal)
        _ = try await queue.enqueue(entry("running"))
        _ = try await queue.enqueue(entry("released"))
        let claimed = try await journal.claim(2, from: "q", concurrency: nil, lease: lease)
        try expect(claimed.records.count == 2, check, "claimed \(claimed.records.map(\.id))")
        try await queue.pause()
        let renewed = try await journal.renew(["running": 1, "released": 1], lease: lease)
        try expect(Set(renewed) == ["running", "released"], check, "renewed while paused: \(renewed)")
        try await journal.settle("running", as: .done(output: [1]), lease: lease.fenced(by: claimed.records[0]))
        try expect(
            try await journal.record(forKey: "running")?.status == .done, check, "the running record did not settle")
        try await journal.release("released", lease: lease.fenced(by: claimed.records[1]), after: .zero)
        let none = try await journal.claim(10, from: "q", concurrency: nil, lease: other)
        try expect(none.records.isEmpty, check, "a record released while paused was claimed: \(none.records)")
        try await queue.resume()
        let after = try await journal.claim(10, from: "q", concurrency: nil, lease: other)
        try expect(after.records.map(\.id) == ["released"], check, "after the resume, claimed \(after.records)")
    }

    static func resumingWakesTheQueuesWorkers(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        guard journal is any QueueWakeSource else { return }
        let check = "a resume wakes the queue's sleeping workers at once (QueueWakeSource)"
        let queue = CommandQueue("resume", journal: journal)
        try await queue.pause()
        let effects = ConformanceEffects()
        try await queue.enqueue(effects.entry("held"))
        // Asleep until its next poll, an hour away on the manual clock, after a claim that took nothing.
        try await withSleepingWorker(queue, effects, clock, check) {
            try expect(!effects.log.contains("+held"), check, "the paused queue's job ran: \(effects.log)")
            try await queue.resume()
            try await waitUntilLogged(
                effects, "+held", check, "'held' waited for the poll after the resume; effects \(effects.log)")
        }
    }
}
