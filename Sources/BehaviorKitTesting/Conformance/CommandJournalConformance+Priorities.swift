import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Priorities on a queue: claims take the due records with the highest priority first, then the
/// oldest, never a record before it is due, never more than the queue's concurrency; every way
/// in keeps the priority, and the reads show it.
extension CommandJournalConformance {
    static var priorityChecks: [Check] {
        [
            higherPriorityIsClaimedFirst, equalPrioritiesAreClaimedOldestFirst,
            aHighPriorityNotYetDueDoesNotHoldBackDueRecords, concurrencyHoldsWithPriorities,
            bulkEnqueueKeepsEachJobsPriority, theReadsShowThePriority,
        ]
    }

    /// A long lease, so that no claim in these checks takes over another's record.
    static let longLease = JournalLease(owner: "conformance-a", duration: .seconds(3_600))

    static func higherPriorityIsClaimedFirst(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws
    {
        let check = "claims take the highest priority first, whatever the order of enqueueing"
        let queue = CommandQueue("q", journal: journal)
        _ = try await queue.enqueue(entry("background"), priority: -5)
        _ = try await queue.enqueue(entry("normal"))
        _ = try await queue.enqueue(entry("urgent"), priority: 10)
        _ = try await queue.enqueue(entry("high"), priority: 3)
        _ = try await queue.enqueue(entry("extreme"), priority: Int.max)
        _ = try await queue.enqueue(entry("lowest"), priority: Int.min)
        let first = try await journal.claim(2, from: "q", concurrency: nil, lease: longLease)
        try expect(
            first.records.map(\.id) == ["extreme", "urgent"], check, "the first claim took \(first.records.map(\.id))")
        try expect(
            first.records.map(\.priority) == [Int.max, 10], check, "claimed priorities \(first.records.map(\.priority))"
        )
        let rest = try await journal.claim(10, from: "q", concurrency: nil, lease: longLease)
        try expect(
            rest.records.map(\.id) == ["high", "normal", "background", "lowest"], check,
            "the next claim took \(rest.records.map(\.id))")
    }

    static func equalPrioritiesAreClaimedOldestFirst(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "among equal priorities, claims take the oldest first"
        let queue = CommandQueue("q", journal: journal)
        for index in 0..<4 { _ = try await queue.enqueue(entry("two-\(index)"), priority: 2) }
        for index in 0..<3 { _ = try await queue.enqueue(entry("zero-\(index)")) }
        _ = try await queue.enqueue(entry("two-late"), priority: 2)
        var claimed: [String] = []
        for _ in 0..<8 {
            claimed += try await journal.claim(1, from: "q", concurrency: nil, lease: longLease).records.map(\.id)
        }
        let expected = (0..<4).map { "two-\($0)" } + ["two-late"] + (0..<3).map { "zero-\($0)" }
        try expect(claimed == expected, check, "claimed one at a time: \(claimed)")
    }

    static func aHighPriorityNotYetDueDoesNotHoldBackDueRecords(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a record of high priority not yet due is not claimed, and does not hold back due ones"
        let queue = CommandQueue("q", journal: journal, concurrency: 1)
        _ = try await queue.enqueue(entry("later"), after: .seconds(60), priority: 100)
        _ = try await queue.enqueue(entry("now"), priority: -1)
        let first = try await journal.claim(5, from: "q", concurrency: 1, lease: longLease)
        try expect(first.records.map(\.id) == ["now"], check, "the claim took \(first.records.map(\.id))")
        try expect(first.nextDue == .seconds(60), check, "the next is due after \(String(describing: first.nextDue))")
        try await journal.settle("now", as: .done(output: nil), lease: longLease)
        let early = try await journal.claim(5, from: "q", concurrency: 1, lease: longLease)
        try expect(early.records.isEmpty, check, "before it was due, a claim took \(early.records.map(\.id))")
        await clock.advance(by: .seconds(60))
        let due = try await journal.claim(5, from: "q", concurrency: 1, lease: longLease)
        try expect(due.records.map(\.id) == ["later"], check, "once due, the claim took \(due.records.map(\.id))")
    }

    static func concurrencyHoldsWithPriorities(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a queue's concurrency holds across workers, whatever the priorities"
        let queue = CommandQueue("q", journal: journal, concurrency: 2)
        for (key, priority) in [("p1", 1), ("p5", 5), ("p0", 0), ("p9", 9), ("p3", 3)] {
            _ = try await queue.enqueue(entry(key), priority: priority)
        }
        let first = try await journal.claim(5, from: "q", concurrency: 2, lease: lease)
        try expect(first.records.map(\.id) == ["p9", "p5"], check, "the first worker took \(first.records.map(\.id))")
        _ = try await queue.enqueue(entry("p100"), priority: 100)
        let second = try await journal.claim(5, from: "q", concurrency: 2, lease: other)
        try expect(
            second.records.isEmpty, check, "at the limit, a second worker took \(second.records.map(\.id))")
        try await journal.settle("p9", as: .done(output: nil), lease: lease)
        let third = try await journal.claim(5, from: "q", concurrency: 2, lease: other)
        try expect(
            third.records.map(\.id) == ["p100"], check, "after one settled, a worker took \(third.records.map(\.id))")
        let held = try await journal.unfinished().filter { $0.owner != nil }.count
        try expect(held == 2, check, "\(held) records are held with a concurrency of 2")
    }

    static func bulkEnqueueKeepsEachJobsPriority(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "enqueue(contentsOf:) keeps each job's priority; a known key keeps the one it has"
        let queue = CommandQueue("bulk", journal: journal)
        _ = try await queue.enqueue(entry("known"), priority: 1)
        let jobs = [
            QueuedJob(entry("low"), priority: -3), QueuedJob(entry("default")), QueuedJob(entry("top"), priority: 7),
            QueuedJob(entry("known"), priority: 50), QueuedJob(entry("mid"), priority: 2),
        ]
        let records = try await queue.enqueue(contentsOf: jobs)
        try expect(
            records.map(\.priority) == [-3, 0, 7, 1, 2], check,
            "the records answered have priorities \(records.map(\.priority))")
        let claimed = try await journal.claim(10, from: "bulk", concurrency: nil, lease: longLease)
        try expect(
            claimed.records.map(\.id) == ["top", "mid", "known", "default", "low"], check,
            "the claim took \(claimed.records.map(\.id))")
    }

    static func theReadsShowThePriority(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws {
        let check = "record(forKey:), allRecords(), records(matching:) and details(forKey:) show the priority"
        let queue = CommandQueue("q", journal: journal)
        let enqueued = try await queue.enqueue(entry("job"), after: .seconds(5), priority: 42)
        try expect(enqueued.priority == 42, check, "enqueue answered priority \(enqueued.priority)")
        _ = try await journal.begin(entry("direct"), lease: lease)
        let record = try await journal.record(forKey: "job")
        try expect(record?.priority == 42, check, "record(forKey:) shows \(String(describing: record?.priority))")
        let all = try await journal.allRecords().map(\.priority)
        try expect(all == [42, 0], check, "allRecords() shows \(all)")
        let page = try await journal.records(matching: .init(queue: "q"), after: nil, limit: 10).records
        try expect(page.map(\.priority) == [42], check, "records(matching:) shows \(page.map(\.priority))")
        let details = try await journal.details(forKey: "job")
        try expect(
            details?.record.priority == 42, check, "details(forKey:) shows \(String(describing: details?.record))")
        await clock.advance(by: .seconds(5))
        let claimed = try await journal.claim(1, from: "q", concurrency: nil, lease: longLease).records
        try expect(claimed.map(\.priority) == [42], check, "the claimed record shows \(claimed.map(\.priority))")
    }
}
