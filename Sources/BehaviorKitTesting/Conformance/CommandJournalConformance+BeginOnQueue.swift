import Commands

extension CommandJournalConformance {
    /// ``CommandJournal/begin(_:queue:lease:)`` writes a new key down on the queue, held under
    /// the lease: no claim takes it while the lease lives, a claim of that queue (and no other)
    /// takes it once the lease lapsed, at the next attempt; beginning the key again answers how
    /// it stands, as ``CommandJournal/begin(_:lease:)`` does.
    static func beginningOnAQueueHoldsARecordItsWorkersTakeOnceTheLeaseLapses(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "begin(_:queue:lease:) holds a new record on the queue; its workers claim it once the lease lapses"
        guard case .started(let started) = try await journal.begin(entry("run"), queue: "runs", lease: lease) else {
            throw failure(check, "a new key did not start")
        }
        try expect(
            started.queue == "runs" && started.owner == lease.owner && started.attempts == 1
                && started.status == .pending, check, "the new record is \(started)")
        let stored = try await journal.record(forKey: "run")
        try expect(
            stored?.queue == "runs" && stored?.owner == lease.owner && stored?.attempts == 1, check,
            "the stored record is \(String(describing: stored))")
        let early = try await journal.claim(8, from: "runs", concurrency: nil, takingOverFrom: nil, lease: other)
        try expect(early.records.isEmpty, check, "a claim took \(early.records.map(\.id)) under a live lease")
        guard case .busy = try await journal.begin(entry("run"), queue: "runs", lease: other) else {
            throw failure(check, "beginning a held key again did not answer busy")
        }
        await clock.advance(by: .seconds(31))
        let callers = try await journal.claim(8, from: nil, concurrency: nil, takingOverFrom: nil, lease: other)
        try expect(callers.records.isEmpty, check, "a claim of callers' records took \(callers.records.map(\.id))")
        let claimed = try await journal.claim(8, from: "runs", concurrency: nil, takingOverFrom: nil, lease: other)
        try expect(
            claimed.records.map(\.id) == ["run"] && claimed.records.first?.attempts == 2, check,
            "once the lease lapsed, a claim of the queue took \(claimed.records)")
        for record in claimed.records {
            try await journal.settle(record.id, as: .done(output: [1]), lease: other.fenced(by: record))
        }
        guard case .settled(let settled) = try await journal.begin(entry("run"), queue: "runs", lease: lease),
            settled.output == [1]
        else { throw failure(check, "beginning a settled key again did not answer it") }
        let another = CommandJournalEntry(idempotencyKey: "run", kind: "test.other", payload: [])
        try await expectError(.conflictingEntry(key: "run"), check, "beginning another entry under the key") {
            _ = try await journal.begin(another, queue: "runs", lease: lease)
        }
    }
}
