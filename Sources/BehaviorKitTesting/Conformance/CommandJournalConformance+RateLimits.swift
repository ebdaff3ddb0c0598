import BehaviorKitSync
import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Rate limits (``CommandJournalManagement/setRateLimit(_:queue:scope:)``): no window of the
/// limit's interval ever holds more than `starts + burst` starts; each partition's bucket is
/// its own; tokens refill with time; the records held back stay pending, and a claim that takes
/// nothing for the limit answers when the next start is due, which a worker sleeps until; a
/// limit changed or removed at run time takes effect at once. Time is the manual clock's,
/// moved in whole milliseconds.
extension CommandJournalConformance {
    static var rateLimitChecks: [Check] {
        [
            aRateIsNeverExceededOverAnyWindow, eachPartitionsBucketIsItsOwn, tokensRefillAfterTheInterval,
            aRateLimitedQueueLeavesItsRecordsQueued, changingOrRemovingARateLimitTakesEffect,
            badRateLimitsAreRefusedByName, aWorkerSleepsUntilTheNextStartIsDue,
        ]
    }

    static func aRateIsNeverExceededOverAnyWindow(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "no window of a rate limit's interval holds more than its starts and burst"
        _ = try await limitedQueue("rated", journal, records: 120, try rateLimit(3, per: .milliseconds(100), burst: 2))
        var random = SplitMix64(seed: 25)
        var starts: [Int64] = []
        var waits = 0
        for _ in 0..<400 where starts.count < 120 {
            await clock.advance(by: .milliseconds(Int64(random.next() % 23)))
            let claim = try await journal.claim(
                Int(1 + random.next() % 6), from: "rated", concurrency: nil, lease: longLease)
            starts += Array(repeating: milliseconds(clock), count: claim.records.count)
            if claim.records.isEmpty {
                waits += 1
                let next = claim.nextDue ?? .zero
                try expect(
                    next > .zero && next <= .milliseconds(100) && claim.heldByRateLimit, check,
                    "a claim held back by the limit answered the next due time \(String(describing: claim.nextDue)), "
                        + "heldByRateLimit \(claim.heldByRateLimit)")
            }
        }
        try expectNoWindowHoldsMore(than: 5, of: starts, interval: 100, check)
        try expect(waits > 0, check, "no claim was ever held back by the limit")
        // 3 every 100 ms from a full bucket: the limit holds back, it does not stop the queue.
        try expect(
            starts.count >= 60, check, "only \(starts.count) starts in 400 claims over \(milliseconds(clock)) ms")
    }

    static func eachPartitionsBucketIsItsOwn(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "each partition's rate limit bucket is its own; records without a partition are not held"
        let queue = CommandQueue("tenants", journal: journal)
        for index in 0..<3 {
            _ = try await queue.enqueue(entry("a-\(index)"), partition: "tenant-a")
            _ = try await queue.enqueue(entry("b-\(index)"), partition: "tenant-b")
        }
        for index in 0..<2 { _ = try await queue.enqueue(entry("none-\(index)")) }
        try await journal.setRateLimit(try rateLimit(1, per: .seconds(1)), queue: "tenants", scope: .partition)
        let first = try await claimed(journal, "tenants")
        try expect(
            Set(first.records.map(\.id)) == ["a-0", "b-0", "none-0", "none-1"], check,
            "the first claim took \(first.records.map(\.id))")
        let refilled = try await claimWhenRefilled(
            journal, "tenants", clock, after: .seconds(1), heldByTheQueuesLimit: false, check)
        try expect(
            Set(refilled.records.map(\.id)) == ["a-1", "b-1"], check,
            "once both buckets refilled, a claim took \(refilled.records.map(\.id))")
        // Emptying one partition's bucket leaves the other's full.
        await clock.advance(by: .seconds(1))
        _ = try await queue.enqueue(entry("a-late"), priority: 9, partition: "tenant-a")
        let onlyA = try await claimed(journal, "tenants", 1)
        try expect(onlyA.records.map(\.id) == ["a-late"], check, "claimed \(onlyA.records.map(\.id)), not a-late")
        let thenB = try await claimed(journal, "tenants")
        try expect(
            thenB.records.map(\.id) == ["b-2"], check,
            "after tenant-a's start, a claim took \(thenB.records.map(\.id)) (tenant-b's bucket is its own)")
    }

    static func tokensRefillAfterTheInterval(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a rate limit's tokens refill with time: one every interval / starts, up to 1 + burst"
        _ = try await limitedQueue("refill", journal, records: 20, try rateLimit(2, per: .seconds(1), burst: 3))
        let full = try await claimed(journal, "refill")
        try expect(full.records.count == 4, check, "a full bucket (1 + burst 3) gave \(full.records.count) starts")
        let one = try await claimWhenRefilled(
            journal, "refill", clock, after: .milliseconds(500), heldByTheQueuesLimit: true, check)
        try expect(one.records.count == 1, check, "at 500 ms, a claim took \(one.records.count), not 1")
        // A long quiet spell fills the bucket to its capacity, never past it.
        await clock.advance(by: .seconds(3_600))
        let refilled = try await claimed(journal, "refill")
        try expect(refilled.records.count == 4, check, "after an hour, a claim took \(refilled.records.count), not 4")
    }

    static func aRateLimitedQueueLeavesItsRecordsQueued(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a rate-limited queue leaves the records it holds back pending, unclaimed; other queues go on"
        let queue = try await limitedQueue("held", journal, records: 3, try rateLimit(1, per: .seconds(60)))
        _ = try await CommandQueue("free", journal: journal).enqueue(entry("f-0"))
        let invoker = JournaledInvoker(journal: journal, registry: ConformanceEffects().registry, clock: clock)
        let settled = try await QueueWorker(queue, invoker: invoker, slots: 4).runDue()
        try expect(settled == 1, check, "runDue() settled \(settled) records under a limit of 1 a minute")
        for key in ["held-1", "held-2"] {
            let record = try await journal.record(forKey: key)
            try expect(
                record?.status == .pending && record?.owner == nil && record?.attempts == 0, check,
                "the held-back record '\(key)' is \(String(describing: record))")
        }
        let other = try await claimed(journal, "free")
        try expect(other.records.map(\.id) == ["f-0"], check, "the other queue's claim took \(other.records)")
        await clock.advance(by: .seconds(60))
        let later = try await claimed(journal, "held")
        try expect(later.records.count == 1, check, "a minute later, a claim took \(later.records.map(\.id))")
    }

    static func changingOrRemovingARateLimitTakesEffect(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a rate limit set, changed or removed at run time takes effect at the next claim"
        let slow = try rateLimit(1, per: .seconds(3_600))
        let queue = try await limitedQueue("changing", journal, records: 12, slow)
        try await queue.setRateLimit(try rateLimit(2, per: .seconds(10)), for: .partition)
        let kept = try await journal.rateLimits()
        try expect(
            kept == [
                CommandJournalRateLimit(
                    queue: "changing", scope: .partition, limit: try rateLimit(2, per: .seconds(10))),
                CommandJournalRateLimit(queue: "changing", scope: .queue, limit: slow),
            ], check, "the journal keeps the limits \(kept)")
        let read = try await queue.rateLimit()
        try expect(read == slow, check, "the queue reads its limit as \(String(describing: read))")
        let first = try await claimed(journal, "changing")
        try expect(first.records.count == 1, check, "under 1 an hour, a claim took \(first.records.count)")
        // The same limit again: its bucket stays empty.
        try await queue.setRateLimit(slow)
        let same = try await claimed(journal, "changing")
        try expect(same.records.isEmpty, check, "setting the same limit again refilled its bucket: \(same.records)")
        try await queue.setRateLimit(try rateLimit(5, per: .seconds(3_600), burst: 4))
        let changed = try await claimed(journal, "changing")
        try expect(
            changed.records.count == 5, check,
            "after the change to 5 and burst 4, a claim took \(changed.records.count)")
        try await queue.setRateLimit(nil)
        try await queue.setRateLimit(nil, for: .partition)
        let left = try await journal.rateLimits()
        try expect(left.isEmpty, check, "limits left after their removal: \(left)")
        try expect(try await queue.rateLimit() == nil, check, "the queue still reads a limit")
        let free = try await claimed(journal, "changing")
        try expect(free.records.count == 6, check, "with the limit removed, a claim took \(free.records.count), not 6")
    }

    static func badRateLimitsAreRefusedByName(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a rate limit of no starts, no interval or absurd values is refused, naming the value"
        let cases: [(Int, Duration, Int, QueueRateLimitError)] = [
            (0, .seconds(1), 0, .startsNotPositive(0)), (-3, .seconds(1), 0, .startsNotPositive(-3)),
            (Int.max, .seconds(1), 0, .tooManyStarts(Int.max)), (1, .zero, 0, .intervalNotPositive(.zero)),
            (1, .seconds(-1), 0, .intervalNotPositive(.seconds(-1))),
            (1, .seconds(Int64.max), 0, .intervalTooLong(.seconds(Int64.max))),
            (1, .seconds(1), -1, .negativeBurst(-1)), (1, .seconds(1), Int.max, .burstTooLarge(Int.max)),
        ]
        for (starts, interval, burst, expected) in cases {
            do {
                let made = try QueueRateLimit(starts: starts, per: interval, burst: burst)
                throw failure(check, "\(starts) per \(interval), burst \(burst) made the limit \(made)")
            } catch let error as QueueRateLimitError {
                try expect(error == expected, check, "\(starts) per \(interval), burst \(burst) threw \(error)")
                try expect(
                    error.description.contains("rate limit"), check,
                    "the error says \(error.description)")
            }
        }
        // The largest limit still computes without overflow.
        let largest = try rateLimit(
            QueueRateLimit.maximumStarts, per: QueueRateLimit.maximumInterval, burst: QueueRateLimit.maximumStarts)
        try await journal.setRateLimit(largest, queue: "largest", scope: .queue)
        _ = try await CommandQueue("largest", journal: journal).enqueue(entry("l-0"))
        let claim = try await claimed(journal, "largest")
        try expect(claim.records.count == 1, check, "under the largest limit, a claim took \(claim.records.count)")
    }

    static func aWorkerSleepsUntilTheNextStartIsDue(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a worker of a rate-limited queue sleeps until the next start is due, not its poll interval"
        let queue = CommandQueue("paced", journal: journal)
        try await queue.setRateLimit(try rateLimit(1, per: .seconds(10)))
        // The start the bucket holds goes to another claimer.
        _ = try await queue.enqueue(entry("elsewhere"))
        let taken = try await claimed(journal, "paced", 1)
        try expect(taken.records.map(\.id) == ["elsewhere"], check, "the first claim took \(taken.records)")
        let effects = ConformanceEffects()
        try await queue.enqueue(effects.entry("next"))
        // Its poll interval is an hour: it wakes for the next start, 10 s away, or not before the hour.
        try await withSleepingWorker(queue, effects, clock, check) {
            try expect(
                !effects.log.contains("+next"), check, "'next' ran before the next start was due: \(effects.log)")
            // A wake-up (an enqueue's notification) may send it back to sleep from a later time: move
            // the clock 10 s at a time, giving the worker a moment after each, up to 10 minutes.
            var advanced = Duration.zero
            while !effects.log.contains("+next") {
                try expect(
                    advanced < .seconds(600), check,
                    "'next' did not run within 10 minutes of the manual clock; effects \(effects.log)")
                await clock.advance(by: .seconds(10))
                advanced += .seconds(10)
                for _ in 0..<40 where !effects.log.contains("+next") { try await Task.sleep(for: .milliseconds(5)) }
            }
        }
    }

    static func twoJournalsShareOneBucket(
        _ first: any CommandJournalManagement, _ second: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "two journals on one database (two processes) share one bucket"
        let queue = CommandQueue("shared-rate", journal: first)
        for index in 0..<60 { _ = try await queue.enqueue(entry("s-\(index)")) }
        try await first.setRateLimit(
            try rateLimit(4, per: .milliseconds(200), burst: 1), queue: "shared-rate", scope: .queue)
        let seen = try await second.rateLimits()
        try expect(seen.map(\.queue) == ["shared-rate"], check, "the second journal reads the limits \(seen)")
        var starts: [Int64] = []
        var random = SplitMix64(seed: 2_025)
        for _ in 0..<60 {
            await clock.advance(by: .milliseconds(Int64(random.next() % 41)))
            let now = milliseconds(clock)
            let taken = try await withThrowingTaskGroup(of: Int.self) { group in
                for journal in [first, second, first, second] {
                    group.addTask {
                        let lease = JournalLease(owner: JournaledInvoker.uniqueOwner(), duration: .seconds(3_600))
                        return try await journal.claim(3, from: "shared-rate", concurrency: nil, lease: lease).records
                            .count
                    }
                }
                return try await group.reduce(0, +)
            }
            starts += Array(repeating: now, count: taken)
        }
        try expectNoWindowHoldsMore(than: 5, of: starts, interval: 200, check)
        try expect(starts.count >= 10, check, "only \(starts.count) starts over \(milliseconds(clock)) ms")
        try await second.setRateLimit(nil, queue: "shared-rate", scope: .queue)
        try expect(
            try await first.rateLimits().isEmpty, check, "the first journal still reads a limit the second removed")
    }
}
