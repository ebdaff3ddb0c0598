import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The management API's reads: listing, details, workers and queues.
extension CommandJournalConformance {
    static var managementChecks: [Check] {
        [
            listingFiltersAndPages, detailsShowDueTimesLeasesAndAttempts, workersAreListedWithWhatTheyHold,
            queuesCountTheirDepthByState,
        ] + actionChecks
    }

    static func keys(
        _ journal: any CommandJournalManagement, _ filter: CommandJournalFilter, after cursor: Int64? = nil,
        limit: Int = 100
    ) async throws -> [String] {
        try await journal.records(matching: filter, after: cursor, limit: limit).records.map(\.id)
    }

    static func listingFiltersAndPages(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws {
        let check = "records(matching:) filters by status, queue, kind, key prefix, owner and time, and pages by cursor"
        let start = clock.currentDate
        _ = try await journal.enqueue(entry("q-1"), queue: "q", after: .zero)
        _ = try await journal.enqueue(entry("q-2"), queue: "q", after: .seconds(60))
        _ = try await journal.enqueue(entry("r_1"), queue: "r", after: .zero)
        await clock.advance(by: .seconds(10))
        try await beginWithAChild(journal, "direct-1")
        _ = try await journal.begin(entry("direct-2"), lease: other)
        try await journal.settle("direct-2", as: .failed(reason: "no"), lease: other)
        let cases: [(String, CommandJournalFilter, [String])] = [
            ("every root", .init(), ["q-1", "q-2", "r_1", "direct-1", "direct-2"]),
            ("failed ones", .init(statuses: [.failed]), ["direct-2"]),
            ("pending ones", .init(statuses: [.pending], keyPrefix: "direct"), ["direct-1"]),
            ("queue 'q'", .init(queue: "q"), ["q-1", "q-2"]),
            ("kind 'test.r_1'", .init(kind: "test.r_1"), ["r_1"]),
            ("key prefix 'direct'", .init(keyPrefix: "direct"), ["direct-1", "direct-2"]),
            ("key prefix 'q_' (not a pattern)", .init(keyPrefix: "q_"), []),
            ("key prefix with steps", .init(keyPrefix: "direct-1", rootsOnly: false), ["direct-1", "direct-1/0"]),
            ("owner", .init(owner: other.owner), ["direct-2"]),
            ("updated since", .init(updatedSince: start.addingTimeInterval(5)), ["direct-1", "direct-2"]),
            ("updated before", .init(updatedBefore: start.addingTimeInterval(5)), ["q-1", "q-2", "r_1"]),
        ]
        for (name, filter, expected) in cases {
            let found = try await keys(journal, filter)
            try expect(found == expected, check, "\(name) lists \(found), expected \(expected)")
        }
        var pages: [[String]] = []
        var cursor: Int64?
        repeat {
            let page = try await journal.records(matching: .init(), after: cursor, limit: 2)
            pages.append(page.records.map(\.id))
            cursor = page.nextCursor
            try expect(pages.count < 5, check, "paging does not end: \(pages)")
        } while cursor != nil
        try expect(
            pages == [["q-1", "q-2"], ["r_1", "direct-1"], ["direct-2"]], check, "pages of 2 are \(pages)")
    }

    static func detailsShowDueTimesLeasesAndAttempts(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "details(forKey:) shows the due time, the lease, and every attempt with its error"
        let start = clock.currentDate
        _ = try await journal.enqueue(entry("job"), queue: "q", after: .seconds(5))
        let waiting = try await journal.details(forKey: "job")
        try expect(
            waiting?.dueAt == start.addingTimeInterval(5) && waiting?.leaseExpiresAt == nil
                && waiting?.attempts.isEmpty == true, check,
            "a delayed record's details: \(String(describing: waiting))")
        await clock.advance(by: .seconds(5))
        let claimed = try await journal.claim(1, from: "q", concurrency: nil, lease: lease).records
        let first = try await journal.details(forKey: "job")
        try expect(
            claimed.count == 1 && first?.dueAt == nil && first?.leaseExpiresAt == start.addingTimeInterval(35)
                && first?.attempts == [CommandJournalAttempt(number: 1, owner: lease.owner)], check,
            "a held record's details: \(String(describing: first))")
        try await journal.release("job", lease: lease.fenced(by: claimed[0]), after: .seconds(7), failure: "timeout")
        let released = try await journal.details(forKey: "job")
        try expect(
            released?.dueAt == start.addingTimeInterval(12)
                && released?.attempts
                    == [
                        CommandJournalAttempt(
                            number: 1, owner: lease.owner, error: "timeout", endedAt: start.addingTimeInterval(5))
                    ],
            check, "after a failed attempt was released: \(String(describing: released))")
        await clock.advance(by: .seconds(7))
        let again = try await journal.claim(1, from: "q", concurrency: nil, lease: other).records
        guard let second = again.first else { throw failure(check, "the released record was not claimed again") }
        try await journal.settle("job", as: .failed(reason: "declined"), lease: other.fenced(by: second))
        let attempts = try await journal.details(forKey: "job")?.attempts.map {
            "\($0.number) \($0.owner ?? "-") \($0.error ?? "-")"
        }
        try expect(
            attempts == ["1 conformance-a timeout", "2 conformance-b declined"], check,
            "attempts of a record that failed twice: \(String(describing: attempts))")
        let missing = try await journal.details(forKey: "zzz")
        try expect(missing == nil, check, "details of an unknown key: \(String(describing: missing))")
    }

    static func workersAreListedWithWhatTheyHold(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "workers() lists each owner with the records it holds and its leases"
        let start = clock.currentDate
        try await begin(journal, "a", "b")
        let c = try await journal.begin(entry("c"), lease: other).record
        _ = try await journal.enqueue(entry("waiting"), queue: "q", after: .zero)
        await clock.advance(by: .seconds(10))
        _ = try await journal.renew(["a": 1], lease: lease)
        let workers = try await journal.workers()
        let expected = [
            CommandJournalWorker(
                owner: lease.owner, holds: ["a", "b"], leaseExpiresAt: start.addingTimeInterval(40),
                earliestLeaseExpiry: start.addingTimeInterval(30)),
            CommandJournalWorker(
                owner: other.owner, holds: ["c"], leaseExpiresAt: start.addingTimeInterval(30),
                earliestLeaseExpiry: start.addingTimeInterval(30)),
        ]
        try expect(workers == expected, check, "workers \(workers)")
        try await journal.settle("c", as: .done(output: nil), lease: other.fenced(by: c))
        let left = try await journal.workers().map(\.owner)
        try expect(left == [lease.owner], check, "after 'c' settled, the workers are \(left)")
    }

    static func queuesCountTheirDepthByState(_ journal: any CommandJournalManagement, _ clock: ManualClock) async throws
    {
        let check = "queues() counts each queue's due, delayed, running and stalled records, and its oldest due"
        let start = clock.currentDate
        _ = try await journal.enqueue(entry("d1"), queue: "q", after: .zero)
        _ = try await journal.enqueue(entry("d2"), queue: "q", after: .zero)
        _ = try await journal.enqueue(entry("later"), queue: "q", after: .seconds(60))
        _ = try await journal.enqueue(entry("r1"), queue: "r", after: .zero)
        _ = try await journal.claim(1, from: "q", concurrency: nil, lease: lease)
        _ = try await journal.begin(entry("direct"), lease: other)
        // The held records ('d1' claimed from "q", 'direct' begun on no queue) count as running
        // while their leases last, and as stalled once they expired; the others stay as they are.
        func expected(running: Int, stalled: Int) -> [CommandJournalQueueStatistics] {
            [
                CommandJournalQueueStatistics(name: nil, running: running, stalled: stalled),
                CommandJournalQueueStatistics(
                    name: "q", due: 1, delayed: 1, running: running, stalled: stalled, oldestDue: start),
                CommandJournalQueueStatistics(name: "r", due: 1, oldestDue: start),
            ]
        }
        let now = try await journal.queues()
        try expect(now == expected(running: 1, stalled: 0), check, "queues \(now)")
        await clock.advance(by: .seconds(31))
        let later = try await journal.queues()
        try expect(later == expected(running: 0, stalled: 1), check, "once the leases expired, queues \(later)")
    }
}
