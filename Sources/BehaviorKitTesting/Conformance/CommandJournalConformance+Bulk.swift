import Commands

/// Dead letters and bulk actions: the records that failed for good are listed apart from the
/// cancelled ones (``CommandJournalFilter/deadLetters(queue:)``), and retried or cancelled by a
/// filter, at most a limit a call, with a cursor to go on.
extension CommandJournalConformance {
    static var bulkChecks: [Check] {
        [deadLettersAreRetriedByFilterALimitAtATime, pendingRecordsAreCancelledByFilter]
    }

    static func deadLettersAreRetriedByFilterALimitAtATime(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "dead letters are listed apart from cancelled records and retried by filter, a limit at a time"
        for key in ["mail-1", "mail-2", "mail-3"] {
            try await settleOnQueue(journal, "mail", key, .failed(reason: "bounced"))
        }
        try await settleOnQueue(journal, "mail", "mail-ok", .done(output: nil))
        try await settleOnQueue(journal, "sms", "sms-1", .failed(reason: "no signal"))
        _ = try await journal.enqueue(entry("mail-cancelled"), queue: "mail", after: .seconds(3_600))
        _ = try await journal.cancel("mail-cancelled", reason: "unsubscribed")
        let dead = try await journal.records(matching: .deadLetters(queue: "mail"), after: nil, limit: 10)
        try expect(
            dead.records.map(\.id) == ["mail-1", "mail-2", "mail-3"], check,
            "the dead letters of 'mail' are \(dead.records.map(\.id))")
        let cancelled = try await journal.records(
            matching: CommandJournalFilter(queue: "mail", cancelled: true), after: nil, limit: 10)
        try expect(
            cancelled.records.map(\.id) == ["mail-cancelled"], check, "cancelled: \(cancelled.records.map(\.id))")
        let first = try await journal.retry(matching: .deadLetters(queue: "mail"), after: nil, limit: 2)
        try expect(
            first.changed.map(\.id) == ["mail-1", "mail-2"] && first.changed.allSatisfy({ $0.status == .pending })
                && first.refused.isEmpty && first.nextCursor != nil, check,
            "the first call retried \(first.changed.map(\.id)), refused \(first.refused), cursor \(String(describing: first.nextCursor))"
        )
        let second = try await journal.retry(matching: .deadLetters(queue: "mail"), after: first.nextCursor, limit: 2)
        try expect(
            second.changed.map(\.id) == ["mail-3"] && second.nextCursor == nil, check,
            "the second call retried \(second.changed.map(\.id)), cursor \(String(describing: second.nextCursor))")
        for key in ["sms-1", "mail-cancelled", "mail-ok"] {
            let status = try await journal.record(forKey: key)?.status
            try expect(status != .pending, check, "'\(key)', outside the filter, was retried")
        }
        do {
            _ = try await journal.retry(matching: CommandJournalFilter(statuses: [.done]), after: nil, limit: 10)
            throw failure(check, "a retry of done records only did not throw")
        } catch let error as JournalBulkActionError {
            try expect(
                error == .nothingToAct(action: "retry", statuses: [.done]), check,
                "a retry of done records threw \(error)")
        }
    }

    static func pendingRecordsAreCancelledByFilter(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "pending records are cancelled by filter (key prefix, queue), a live worker's command refused"
        for key in ["order-1", "order-2", "order-3", "other-1"] {
            _ = try await journal.enqueue(entry(key), queue: "orders", after: .zero)
        }
        let running = try await journal.claim(1, from: "orders", concurrency: nil, lease: lease)
        try expect(running.records.map(\.id) == ["order-1"], check, "claimed \(running.records.map(\.id))")
        try await settleOnQueue(journal, "orders", "order-2", .done(output: nil))
        let filter = CommandJournalFilter(queue: "orders", keyPrefix: "order-")
        let result = try await journal.cancel(matching: filter, reason: "bad deploy", after: nil, limit: 10)
        try expect(
            result.changed.map(\.id) == ["order-3"] && result.refused.map(\.key) == ["order-1"]
                && result.nextCursor == nil, check,
            "cancelled \(result.changed.map(\.id)), refused \(result.refused)")
        let cancelled = try await journal.record(forKey: "order-3")
        try expect(
            cancelled?.status == .failed && cancelled?.failureReason == "cancelled: bad deploy", check,
            "order-3 is \(String(describing: cancelled))")
        try expect(try await journal.record(forKey: "other-1")?.status == .pending, check, "other-1 was cancelled")
        try expect(try await journal.record(forKey: "order-2")?.status == .done, check, "order-2 changed")
    }
}
