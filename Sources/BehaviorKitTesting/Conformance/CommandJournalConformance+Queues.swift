import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CommandJournalConformance {
    static func enqueuedRecordsWaitUntilDue(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws
    {
        let check = "enqueued records wait, unowned, until due; claims take them oldest first"
        let record = try await journal.enqueue(entry("later"), queue: "q", after: .seconds(10))
        try expect(
            record.status == .pending && record.owner == nil && record.queue == "q", check, "enqueue gave \(record)")
        _ = try await journal.enqueue(entry("first"), queue: "q", after: .zero)
        _ = try await journal.enqueue(entry("second"), queue: "q", after: .zero)
        let again = try await journal.enqueue(entry("later"), queue: "q", after: .zero)
        try expect(again.sequence == record.sequence, check, "enqueuing a key again gave \(again)")
        let now = try await journal.claim(10, from: "q", concurrency: nil, lease: lease)
        try expect(
            now.records.map(\.id) == ["first", "second"] && now.records.allSatisfy({ $0.attempts == 1 }), check,
            "the claim took \(now.records.map { "\($0.id)#\($0.attempts)" })")
        try expect(now.nextDue == .seconds(10), check, "the next is due after \(String(describing: now.nextDue))")
        await clock.advance(by: .seconds(10))
        let due = try await journal.claim(10, from: "q", concurrency: nil, lease: lease)
        try expect(due.records.map(\.id) == ["later"], check, "once due, the claim took \(due.records.map(\.id))")
        try await journal.settle("first", as: .done(output: nil), lease: lease)
        await clock.advance(by: .seconds(31))
        let takeover = try await journal.claim(10, from: "q", concurrency: nil, lease: other)
        try expect(
            takeover.records.map(\.id) == ["later", "second"] && takeover.records.allSatisfy({ $0.attempts == 2 }),
            check, "after the leases expired, another worker took \(takeover.records.map { "\($0.id)#\($0.attempts)" })"
        )
    }

    static func queueConcurrencyIsRespected(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws
    {
        let check = "a queue's concurrency holds across workers"
        for index in 0..<5 { _ = try await journal.enqueue(entry("k\(index)"), queue: "q", after: .zero) }
        let first = try await journal.claim(5, from: "q", concurrency: 2, lease: lease)
        try expect(first.records.count == 2, check, "the first worker took \(first.records.count) with a limit of 2")
        let second = try await journal.claim(5, from: "q", concurrency: 2, lease: other)
        try expect(second.records.isEmpty, check, "a second worker took \(second.records.count) at the limit")
        try await journal.settle(first.records[0].id, as: .done(output: nil), lease: lease)
        let third = try await journal.claim(5, from: "q", concurrency: 2, lease: other)
        try expect(third.records.count == 1, check, "after one settled, a worker took \(third.records.count)")
    }

    static func queuesAreSeparate(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws {
        let check = "queues, and work run by callers, are claimed separately"
        _ = try await journal.enqueue(entry("a1"), queue: "a", after: .zero)
        _ = try await journal.enqueue(entry("b1"), queue: "b", after: .zero)
        _ = try await journal.begin(entry("direct"), lease: lease)
        await clock.advance(by: .seconds(31))
        let fromA = try await journal.claim(10, from: "a", concurrency: nil, lease: other)
        try expect(fromA.records.map(\.id) == ["a1"], check, "a claim from 'a' took \(fromA.records.map(\.id))")
        let recovered = try await journal.claim(10, from: nil, concurrency: nil, lease: other)
        try expect(
            recovered.records.map(\.id) == ["direct"], check,
            "a claim of expired direct work took \(recovered.records.map(\.id))")
    }

    static func pruningDeletesOnlyOldSettledRecords(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "prune deletes settled roots older than the date, with their children, and nothing pending"
        try await beginWithAChild(journal, "old")
        try await journal.settle("old/0", as: .done(output: nil), lease: lease)
        try await journal.settle("old", as: .done(output: nil), lease: lease)
        _ = try await journal.begin(entry("pending"), lease: lease)
        await clock.advance(by: .seconds(3600))
        _ = try await journal.begin(entry("recent"), lease: lease)
        try await journal.settle("recent", as: .failed(reason: "no"), lease: lease)
        let deleted = try await journal.prune(settledBefore: clock.currentDate.addingTimeInterval(-60))
        let left = try await journal.allRecords().map(\.id)
        try expect(deleted == 2 && left == ["pending", "recent"], check, "deleted \(deleted), left \(left)")
    }
}
