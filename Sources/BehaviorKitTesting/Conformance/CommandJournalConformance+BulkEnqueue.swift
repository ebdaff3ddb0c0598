import Commands

extension CommandJournalConformance {
    static func bulkEnqueueKeepsOrderKeysAndDelays(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "enqueue(contentsOf:) writes every job in order with its own delay; a known key answers its record"
        let queue = CommandQueue("bulk", journal: journal)
        _ = try await queue.enqueue(entry("known"))
        let count = 1_500  // more than one batch of every store's group commit
        var jobs = (0..<count).map { QueuedJob(entry("job-\($0)")) }
        jobs[7].delay = .seconds(60)
        jobs.append(QueuedJob(entry("known"), after: .seconds(5)))
        let records = try await queue.enqueue(contentsOf: jobs)
        try expect(records.count == count + 1, check, "answered \(records.count) records for \(count + 1) jobs")
        try expect(
            zip(records, jobs).allSatisfy { $0.id == $1.entry.idempotencyKey && $0.queue == "bulk" }, check,
            "the records answered are not the jobs' in order")
        let sequences = records.prefix(count).map(\.sequence)
        try expect(sequences == sequences.sorted() && Set(sequences).count == count, check, "sequences out of order")
        try expect(records[count].sequence < records[0].sequence, check, "the known key was enqueued again")
        // Leases longer than the delay, so that the second claim sees only what fell due.
        let long = JournalLease(owner: lease.owner, duration: .seconds(3_600))
        let claimed = try await journal.claim(count + 10, from: "bulk", concurrency: nil, lease: long)
        let expected = ["known"] + (0..<count).filter { $0 != 7 }.map { "job-\($0)" }
        try expect(
            claimed.records.map(\.id) == expected, check,
            "the claim took \(claimed.records.count) records, first \(claimed.records.prefix(3).map(\.id))")
        try expect(
            claimed.nextDue == .seconds(60), check,
            "the delayed job is due after \(String(describing: claimed.nextDue))")
        await clock.advance(by: .seconds(60))
        let later = try await journal.claim(10, from: "bulk", concurrency: nil, lease: long)
        try expect(later.records.map(\.id) == ["job-7"], check, "once due, the claim took \(later.records.map(\.id))")
    }

    static func bulkEnqueueRefusesBadKeysBeforeWritingAndReportsConflicts(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "enqueue(contentsOf:) refuses a bad key before writing anything, and names each conflict"
        let queue = CommandQueue("bulk", journal: journal)
        do {
            _ = try await queue.enqueue(contentsOf: [QueuedJob(entry("fine")), QueuedJob(entry("bad\u{0}key"))])
            throw failure(check, "a job with a NUL in its key was taken")
        } catch let error as InvalidKeyError {
            try expect(error.key == "bad\u{0}key", check, "refused with \(error)")
        }
        let written = try await journal.allRecords()
        try expect(written.isEmpty, check, "a refused call wrote \(written.map(\.id))")
        _ = try await queue.enqueue(entry("taken"))
        let conflicting = CommandJournalEntry(idempotencyKey: "taken", kind: "another.kind", payload: [1])
        do {
            _ = try await queue.enqueue(contentsOf: [
                QueuedJob(entry("before")), QueuedJob(conflicting), QueuedJob(entry("after")),
            ])
            throw failure(check, "a job whose key holds another entry was taken")
        } catch let error as BulkEnqueueError {
            try expect(
                error.refusals.map(\.index) == [1] && error.refusals.map(\.key) == ["taken"], check,
                "refusals: \(error)")
            try expect(
                error.records.map { $0?.id } == ["before", nil, "after"], check,
                "records answered: \(error.records.map { $0?.id })")
        }
        let keys = try await journal.allRecords().map(\.id)
        try expect(keys == ["taken", "before", "after"], check, "the journal holds \(keys)")
        let none = try await queue.enqueue(contentsOf: [])
        try expect(none.isEmpty, check, "an empty call answered \(none.count) records")
    }

    static func bulkEnqueueAnswersAKeyTwiceInOneCallOnce(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check =
            "enqueue(contentsOf:) with a key twice in one call writes it once; the second job answers that record"
        let queue = CommandQueue("bulk", journal: journal)
        let records = try await queue.enqueue(contentsOf: [
            QueuedJob(entry("twice")), QueuedJob(entry("once")), QueuedJob(entry("twice"), after: .seconds(9)),
        ])
        try expect(records.map(\.id) == ["twice", "once", "twice"], check, "answered \(records.map(\.id))")
        try expect(records[0].sequence == records[2].sequence, check, "the key was written twice")
        let claimed = try await journal.claim(10, from: "bulk", concurrency: nil, lease: lease)
        try expect(claimed.records.map(\.id) == ["twice", "once"], check, "claimed \(claimed.records.map(\.id))")
        let other = CommandJournalEntry(idempotencyKey: "again", kind: "another.kind", payload: [2])
        do {
            _ = try await queue.enqueue(contentsOf: [QueuedJob(entry("again")), QueuedJob(other)])
            throw failure(check, "a second job with the same key and another entry was taken")
        } catch let error as BulkEnqueueError {
            try expect(error.refusals.map(\.index) == [1], check, "refusals: \(error)")
            try expect(
                error.records.map { $0?.id } == ["again", nil], check, "records: \(error.records.map { $0?.id })")
        }
    }
}
