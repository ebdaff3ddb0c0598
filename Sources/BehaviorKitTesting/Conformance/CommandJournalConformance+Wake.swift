import Commands

extension CommandJournalConformance {
    /// ``CommandJournal/wake(_:)`` makes a record that waits on a queue (delayed, held by no
    /// worker) due now, and touches no other: not one due already, one a worker holds, one run
    /// by its caller, a child, a settled record, or a missing key.
    static func wakingMakesAWaitingRecordDueAndNoOther(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "wake(_:) makes a record waiting on a queue due now, and changes no other record"
        _ = try await journal.enqueue(entry("later"), queue: "waiting", after: .seconds(3_600))
        _ = try await journal.enqueue(entry("due"), queue: "waiting", after: .zero)
        _ = try await journal.enqueue(entry("held"), queue: "held", after: .zero)
        _ = try await journal.claim(1, from: "held", concurrency: nil, takingOverFrom: nil, lease: lease)
        try await beginWithAChild(journal, "called")
        _ = try await journal.enqueue(entry("settled"), queue: "settled", after: .zero)
        let settled = try await journal.claim(1, from: "settled", concurrency: nil, takingOverFrom: nil, lease: lease)
        for record in settled.records {
            try await journal.settle(record.id, as: .done(output: nil), lease: lease.fenced(by: record))
        }
        let before = try await journal.allRecords()
        for key in ["due", "held", "called", "called/0", "settled", "missing"] {
            let woken = try await journal.wake(key)
            try expect(!woken, check, "wake('\(key)') answered true")
        }
        let after = try await journal.allRecords()
        try expect(after == before, check, "a wake that answered false changed \(after) (was \(before))")
        try expect(try await journal.wake("later"), check, "wake('later') answered false")
        let claimed = try await journal.claim(8, from: "waiting", concurrency: nil, takingOverFrom: nil, lease: other)
        let keys = claimed.records.map(\.id).sorted()
        try expect(keys == ["due", "later"], check, "after the wake, a claim took \(keys)")
        try expect(!(try await journal.wake("later")), check, "wake('later') answered true once it was held")
    }
}
