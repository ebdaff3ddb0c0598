import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Limits per partition (``CommandQueue/concurrencyPerPartition``): a claim never holds more than
/// the limit of one partition at once, across concurrent claimers; a full partition holds back
/// its own records only, never the other partitions' nor those without one; the limit frees
/// when a record settles or its lease ends; the queue's own concurrency still holds.
extension CommandJournalConformance {
    static var keyLimitChecks: [Check] {
        [
            aFullPartitionHoldsBackOnlyItsOwnRecords, concurrentClaimsNeverExceedAPartitionsLimit,
            aPartitionsPlaceFreesWhenARecordSettlesOrItsLeaseEnds, theQueuesConcurrencyHoldsWithPartitions,
        ]
    }

    static func aFullPartitionHoldsBackOnlyItsOwnRecords(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    )
        async throws
    {
        let check = "a full partition holds back its own records only: the others' are claimed past them"
        let queue = CommandQueue("p", journal: journal, concurrencyPerPartition: 2)
        for index in 0..<5 { _ = try await queue.enqueue(entry("a-\(index)"), partition: "tenant-a") }
        for index in 0..<3 { _ = try await queue.enqueue(entry("b-\(index)"), partition: "tenant-b") }
        for index in 0..<2 { _ = try await queue.enqueue(entry("none-\(index)")) }
        let first = try await journal.claim(10, from: "p", concurrency: nil, perPartition: 2, lease: longLease)
        let expected: Set<String> = ["a-0", "a-1", "b-0", "b-1", "none-0", "none-1"]
        try expect(Set(first.records.map(\.id)) == expected, check, "the first claim took \(first.records.map(\.id))")
        let second = try await journal.claim(10, from: "p", concurrency: nil, perPartition: 2, lease: longLease)
        try expect(second.records.isEmpty, check, "with both partitions full, a claim took \(second.records.map(\.id))")
    }

    static func concurrentClaimsNeverExceedAPartitionsLimit(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    )
        async throws
    {
        let check = "concurrent claims never hold more than a partition's limit"
        let queue = CommandQueue("c", journal: journal, concurrencyPerPartition: 3)
        for index in 0..<20 {
            _ = try await queue.enqueue(entry("a-\(index)"), partition: "tenant-a")
            _ = try await queue.enqueue(entry("b-\(index)"), partition: "tenant-b")
        }
        let claimed = try await withThrowingTaskGroup(of: [CommandJournalRecord].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    let lease = JournalLease(owner: "worker-\(worker)", duration: .seconds(3_600))
                    var taken: [CommandJournalRecord] = []
                    for _ in 0..<3 {
                        taken += try await journal.claim(2, from: "c", concurrency: nil, perPartition: 3, lease: lease)
                            .records
                    }
                    return taken
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let a = claimed.filter { $0.id.hasPrefix("a-") }.count
        let b = claimed.filter { $0.id.hasPrefix("b-") }.count
        try expect(a == 3 && b == 3, check, "claimed \(a) of tenant-a and \(b) of tenant-b, limit 3 each")
    }

    static func aPartitionsPlaceFreesWhenARecordSettlesOrItsLeaseEnds(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a partition's place frees when its record settles, or when its lease ends"
        let queue = CommandQueue("f", journal: journal, concurrencyPerPartition: 1)
        for index in 0..<3 { _ = try await queue.enqueue(entry("a-\(index)"), partition: "tenant-a") }
        let first = try await journal.claim(5, from: "f", concurrency: nil, perPartition: 1, lease: lease)
        try expect(first.records.map(\.id) == ["a-0"], check, "the first claim took \(first.records.map(\.id))")
        let full = try await journal.claim(5, from: "f", concurrency: nil, perPartition: 1, lease: other)
        try expect(full.records.isEmpty, check, "a full partition gave \(full.records.map(\.id))")
        try await journal.settle("a-0", as: .done(output: nil), lease: lease.fenced(by: first.records[0]))
        let afterSettle = try await journal.claim(5, from: "f", concurrency: nil, perPartition: 1, lease: lease)
        try expect(
            afterSettle.records.map(\.id) == ["a-1"], check, "after a settlement, claimed \(afterSettle.records)")
        await clock.advance(by: lease.duration + .seconds(1))
        // a-1's lease ended: its place is free, and a-1, the oldest due, is taken over.
        let afterExpiry = try await journal.claim(5, from: "f", concurrency: nil, perPartition: 1, lease: other)
        try expect(
            afterExpiry.records.map(\.id) == ["a-1"], check,
            "after the lease ended, claimed \(afterExpiry.records.map(\.id))")
    }

    static func theQueuesConcurrencyHoldsWithPartitions(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    )
        async throws
    {
        let check = "the queue's concurrency holds beside the limit per partition"
        let queue = CommandQueue("q", journal: journal, concurrency: 3, concurrencyPerPartition: 2)
        for index in 0..<4 {
            _ = try await queue.enqueue(entry("a-\(index)"), partition: "tenant-a")
            _ = try await queue.enqueue(entry("b-\(index)"), partition: "tenant-b")
        }
        let first = try await journal.claim(10, from: "q", concurrency: 3, perPartition: 2, lease: longLease)
        let a = first.records.filter { $0.id.hasPrefix("a-") }.count
        try expect(
            first.records.count == 3 && a <= 2 && a >= 1, check,
            "claimed \(first.records.map(\.id)) (at most 3, at most 2 a partition)")
        let second = try await journal.claim(10, from: "q", concurrency: 3, perPartition: 2, lease: longLease)
        try expect(second.records.isEmpty, check, "a full queue gave \(second.records.map(\.id))")
    }
}
