import Commands

/// Pruning by status, queue and a limit, and a queue's retention
/// (``QueueRetention/prune(_:on:now:)``): each pass is run by one of the workers that find it
/// due, deletes at most its limit, the first settled first, and never a pending record nor a
/// settled one with a pending child.
extension CommandJournalConformance {
    static var retentionChecks: [Check] {
        [pruningKeepsToItsStatusesQueueAndLimit, aRetentionPassRunsOnceAcrossFourWorkers]
    }

    static func pruningKeepsToItsStatusesQueueAndLimit(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "prune keeps to its statuses, queue and limit, the first settled first, and spares pending work"
        for key in ["d1", "d2", "d3"] {
            try await settleOnQueue(journal, "q", key, .done(output: nil))
            await clock.advance(by: .seconds(1))
        }
        try await settleOnQueue(journal, "q", "f1", .failed(reason: "declined"))
        try await settleOnQueue(journal, "other", "o1", .done(output: nil))
        _ = try await journal.enqueue(entry("p1"), queue: "q", after: .zero)
        try await beginWithAChild(journal, "t1")
        try await journal.settle("t1", as: .done(output: nil), lease: lease)
        await clock.advance(by: .seconds(60))
        let now = clock.currentDate
        let first = try await journal.prune(settledBefore: now, statuses: [.done], queue: "q", limit: 2)
        var left = try await journal.allRecords().map(\.id)
        try expect(
            first == 2 && !left.contains("d1") && !left.contains("d2") && left.contains("d3"), check,
            "a prune of 2 done on 'q' deleted \(first), left \(left)")
        let second = try await journal.prune(settledBefore: now, statuses: [.done], queue: "q", limit: 10)
        left = try await journal.allRecords().map(\.id)
        try expect(
            second == 1 && left.contains("f1") && left.contains("o1") && left.contains("p1"), check,
            "a prune of done on 'q' deleted \(second), left \(left)")
        let pending = try await journal.prune(settledBefore: now, statuses: [.pending], queue: nil, limit: nil)
        try expect(pending == 0, check, "a prune of pending records deleted \(pending)")
        let rest = try await journal.prune(settledBefore: now)
        left = try await journal.allRecords().map(\.id)
        try expect(
            rest == 2 && Set(left) == ["p1", "t1", "t1/0"], check,
            "pruning every settled root deleted \(rest), left \(left) (a root with a pending child must stay)")
    }

    static func aRetentionPassRunsOnceAcrossFourWorkers(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a queue's retention pass runs once across four workers, and prunes by age and status"
        try await settleOnQueue(journal, "q", "old-done", .done(output: nil))
        try await settleOnQueue(journal, "q", "old-failed", .failed(reason: "declined"))
        try await settleOnQueue(journal, "other", "elsewhere", .done(output: nil))
        await clock.advance(by: .seconds(7_200))
        try await settleOnQueue(journal, "q", "new-done", .done(output: nil))
        _ = try await journal.enqueue(entry("waiting"), queue: "q", after: .zero)
        let retention = QueueRetention(
            succeeded: .seconds(3_600), failed: .seconds(86_400), limit: 10, interval: .seconds(60))
        let saved = try await fourPasses(retention, journal, clock)
        try expect(saved.isEmpty, check, "passes ran at once on the first save: \(saved)")
        await clock.advance(by: .seconds(60))
        let passes = try await fourPasses(retention, journal, clock)
        try expect(passes == [1], check, "four workers' passes answered \(passes)")
        var left = try await journal.allRecords().map(\.id)
        try expect(
            Set(left) == ["old-failed", "elsewhere", "new-done", "waiting"], check, "the first pass left \(left)")
        let again = try await fourPasses(retention, journal, clock)
        try expect(again.isEmpty, check, "passes before the interval ended answered \(again)")
        let ticks = try await QueueScheduler(journal: journal, wallClock: clock, clock: clock).runDue()
        try expect(ticks.isEmpty, check, "a scheduler enqueued the retention's ticks: \(ticks.map(\.id))")
        await clock.advance(by: .seconds(86_400))
        let later = try await fourPasses(retention, journal, clock)
        left = try await journal.allRecords().map(\.id)
        try expect(
            later == [2] && Set(left) == ["elsewhere", "waiting"], check,
            "a day later the passes answered \(later) and left \(left)")
    }

    /// What four concurrent passes of `retention` on the queue `q` answered, the passes that
    /// ran only.
    static func fourPasses(
        _ retention: QueueRetention, _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws -> [Int] {
        let now = clock.currentDate
        return try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<4 { group.addTask { try await retention.prune("q", on: journal, now: now) } }
            var ran: [Int] = []
            for try await deleted in group { if let deleted { ran.append(deleted) } }
            return ran
        }
    }

    /// Enqueues `key` on `queue`, claims it and settles it as `settlement`.
    static func settleOnQueue(
        _ journal: any CommandJournalManagement, _ queue: String, _ key: String, _ settlement: CommandJournalSettlement
    ) async throws {
        _ = try await journal.enqueue(entry(key), queue: queue, after: .zero)
        let claimed = try await journal.claim(1, from: queue, concurrency: nil, lease: lease)
        guard let record = claimed.records.first, record.id == key else {
            throw failure("settling '\(key)' on '\(queue)'", "the claim took \(claimed.records.map(\.id))")
        }
        try await journal.settle(key, as: settlement, lease: lease.fenced(by: record))
    }
}
