import Commands

/// Forking: a settled record's work again under a new key, once.
extension CommandJournalConformance {
    static func forkingRunsTheWorkAgainUnderANewKey(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "fork(_:as:queue:) enqueues a settled record's work under a new key, once; the original stays"
        let original = CommandJournalEntry(idempotencyKey: "o", kind: "conformance.step", payload: [7, 8])
        _ = try await journal.enqueue(original, queue: "q", after: .zero)
        let held = try await journal.claim(1, from: "q", concurrency: nil, lease: lease).records
        try expect(held.map(\.id) == ["o"], check, "the original was not claimed: \(held)")
        try await expectError(
            .cannotFork(key: "o", reason: "it is pending and may still run"), check, "forking a pending record"
        ) { _ = try await journal.fork("o", as: "o2") }
        try await journal.settle("o", as: .failed(reason: "boom"), lease: lease.fenced(by: held[0]))

        let fork = try await journal.fork("o", as: "o2")
        try expect(
            fork.id == "o2" && fork.entry.kind == original.kind && fork.entry.payload == original.payload
                && fork.status == .pending && fork.queue == "q" && fork.owner == nil && fork.attempts == 0,
            check, "the fork is \(fork)")
        let again = try await journal.fork("o", as: "o2")
        try expect(again.sequence == fork.sequence, check, "forking twice wrote \(again) beside \(fork)")
        let claimed = try await journal.claim(10, from: "q", concurrency: nil, lease: other).records
        try expect(claimed.map(\.id) == ["o2"], check, "the queue's claim after the fork took \(claimed.map(\.id))")
        let kept = try await journal.record(forKey: "o")
        try expect(
            kept?.status == .failed && kept?.failureReason == "boom", check,
            "the forked record became \(String(describing: kept))")

        try await expectError(.unknownKey("zzz"), check, "forking an unknown key") {
            _ = try await journal.fork("zzz", as: "z2")
        }
        try await expectError(
            .cannotFork(key: "o", reason: "the new key is the record's own"), check, "forking into its own key"
        ) { _ = try await journal.fork("o", as: "o") }
        let byCaller = try await journal.begin(entry("c"), lease: lease).record
        try await journal.settle("c", as: .done(output: nil), lease: lease.fenced(by: byCaller))
        try await expectError(
            .cannotFork(
                key: "c", reason: "it ran on no queue (its caller ran it); name the queue the fork goes to"),
            check, "forking a record of no queue without naming one"
        ) { _ = try await journal.fork("c", as: "c2") }
        let named = try await journal.fork("c", as: "c2", queue: "elsewhere")
        try expect(named.queue == "elsewhere", check, "a fork to a named queue is \(named)")
        try await expectError(.conflictingEntry(key: "c"), check, "forking into a key that holds other work") {
            _ = try await journal.fork("o", as: "c")
        }
    }
}
