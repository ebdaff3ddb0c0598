import BehaviorKitSync
public import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the rate limit cases share: a limited queue of records, claims on a long lease, the
/// wait for the next start, and the check that no window holds more starts than allowed.
extension CommandJournalConformance {
    /// Runs the rate limit checks that need two journals on one database (two processes):
    /// `makeJournals` opens both on the clock; for a store in one process (the in-memory
    /// journal), the same journal twice.
    ///
    /// ```swift
    /// try await CommandJournalConformance.checkSharedRateLimits { clock in
    ///     (try SQLiteCommandJournal(path: path, clock: clock), try SQLiteCommandJournal(path: path, clock: clock))
    /// }
    /// ```
    public static func checkSharedRateLimits(
        _ makeJournals: (ManualClock) async throws -> (any CommandJournalManagement, any CommandJournalManagement)
    ) async throws {
        let clock = ManualClock()
        let (first, second) = try await makeJournals(clock)
        try await twoJournalsShareOneBucket(first, second, clock)
    }

    static func rateLimit(_ starts: Int, per interval: Duration, burst: Int = 0) throws -> QueueRateLimit {
        try QueueRateLimit(starts: starts, per: interval, burst: burst)
    }

    /// The queue `name` with `count` records (`<name>-0`…) and `limit` of `scope` set.
    static func limitedQueue(
        _ name: String, _ journal: any CommandJournalManagement, records count: Int, _ limit: QueueRateLimit,
        scope: QueueRateLimitScope = .queue
    ) async throws -> CommandQueue {
        let queue = CommandQueue(name, journal: journal)
        for index in 0..<count { _ = try await queue.enqueue(entry("\(name)-\(index)")) }
        try await queue.setRateLimit(limit, for: scope)
        return queue
    }

    /// A claim of up to `limit` records of `queue` under the long lease.
    static func claimed(
        _ journal: any CommandJournalManagement, _ queue: String, _ limit: Int = 10
    ) async throws -> CommandJournalClaim {
        try await journal.claim(limit, from: queue, concurrency: nil, lease: longLease)
    }

    /// Checks that a claim from `queue`, whose buckets are empty now, takes nothing and answers
    /// the next start `after` from now, that one a millisecond before it still takes nothing;
    /// answers a claim at `after`.
    static func claimWhenRefilled(
        _ journal: any CommandJournalManagement, _ queue: String, _ clock: ManualClock, after: Duration,
        heldByTheQueuesLimit held: Bool, _ check: String
    ) async throws -> CommandJournalClaim {
        let empty = try await claimed(journal, queue)
        try expect(empty.records.isEmpty, check, "with the bucket empty, a claim took \(empty.records.map(\.id))")
        try expect(
            empty.heldByRateLimit == held, check,
            "the claim answered heldByRateLimit \(empty.heldByRateLimit), not \(held) (the queue's own bucket)")
        try expect(
            empty.nextDue == after, check,
            "the claim answered the next due time \(String(describing: empty.nextDue)), not \(after)")
        await clock.advance(by: after - .milliseconds(1))
        let early = try await claimed(journal, queue)
        try expect(early.records.isEmpty, check, "a millisecond early, a claim took \(early.records.map(\.id))")
        await clock.advance(by: .milliseconds(1))
        return try await claimed(journal, queue)
    }

    /// The journal's clock now, in milliseconds.
    static func milliseconds(_ clock: ManualClock) -> Int64 {
        Int64((clock.currentDate.timeIntervalSince1970 * 1_000).rounded())
    }

    /// Fails `check` when a window of `interval` milliseconds holds more than `most` of `starts`
    /// (times in milliseconds, in order).
    static func expectNoWindowHoldsMore(
        than most: Int, of starts: [Int64], interval: Int64, _ check: String
    ) throws {
        var first = 0
        for (last, time) in starts.enumerated() {
            while starts[first] <= time - interval { first += 1 }
            try expect(
                last - first + 1 <= most, check,
                "\(last - first + 1) starts in the window of \(interval) ms from \(starts[first]) (at most \(most))")
        }
    }
}
