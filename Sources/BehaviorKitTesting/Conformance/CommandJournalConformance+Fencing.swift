import Commands

extension CommandJournalConformance {
    /// Every claim starts an attempt with a greater token, and every write of an attempt commits
    /// only while the record holds its token: a worker that claims again a record it lost fences
    /// its own old attempt.
    static func staleAttemptsAreFencedByTheirToken(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a write under an attempt's token commits only while the record holds that token"
        guard case .started(let first) = try await journal.begin(entry("t"), lease: lease) else {
            throw failure(check, "begin of a new key did not start it")
        }
        let old = lease.fenced(by: first)
        try expect(old.token == 1, check, "the first attempt has the token \(String(describing: old.token))")
        _ = try await journal.append(child("t", 0), lease: old)
        await clock.advance(by: .seconds(31))
        let claim = try await journal.claim(10, from: nil, concurrency: nil, lease: lease)  // the same owner
        guard let second = claim.records.first, claim.records.count == 1 else {
            throw failure(check, "the same owner could not claim its lapsed record again: \(claim.records)")
        }
        let new = lease.fenced(by: second)
        try expect(new.token == 2, check, "the second attempt has the token \(String(describing: new.token))")
        try await expectError(.leaseLost(key: "t", owner: lease.owner), check, "the old attempt appending") {
            _ = try await journal.append(child("t", 1), lease: old)
        }
        try await expectError(.leaseLost(key: "t", owner: lease.owner), check, "the old attempt settling a step") {
            try await journal.settle("t/0", as: .done(output: [9]), lease: old)
        }
        try await expectError(.leaseLost(key: "t", owner: lease.owner), check, "the old attempt settling in one commit")
        {
            try await journal.settle(
                [.settle(child("t", 0), as: .compensated), .settle("t", as: .compensated)], lease: old)
        }
        try await expectError(.leaseLost(key: "t", owner: lease.owner), check, "the old attempt settling the root") {
            try await journal.settle("t", as: .compensated, lease: old)
        }
        let renewed = try await journal.renew(["t": 1], lease: lease)
        try expect(renewed.isEmpty, check, "the old attempt renewed \(renewed)")
        try await journal.release("t", lease: old, after: .zero)
        let held = try await journal.record(forKey: "t")
        try expect(
            held?.owner == lease.owner && held?.attempts == 2 && held?.status == .pending, check,
            "the old attempt's release changed the record: \(String(describing: held))")
        let step = try await journal.record(forKey: "t/0")
        try expect(
            step?.status == .pending, check, "the old attempt's writes changed the step: \(String(describing: step))")
        try expect(try await journal.renew(["t": 2], lease: lease) == ["t"], check, "the new attempt could not renew")
        try await journal.settle(
            [.settle(child("t", 0), as: .done(output: [2])), .settle("t", as: .done(output: nil))], lease: new)
        let done = try await journal.record(forKey: "t")
        try expect(done?.status == .done, check, "the new attempt could not settle: \(String(describing: done))")
        guard case .started(let queued) = try await journal.begin(entry("q"), lease: other) else {
            throw failure(check, "begin of 'q' did not start it")
        }
        try await journal.release("q", lease: other.fenced(by: queued), after: .zero)
        let reclaimed = try await journal.claim(1, from: nil, concurrency: nil, lease: other)
        try expect(
            reclaimed.records.first?.attempts == 2, check,
            "a record released and claimed again has the token \(String(describing: reclaimed.records.first?.attempts))"
        )
    }
}
