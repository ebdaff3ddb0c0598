import Commands

extension WorkflowConformance {
    /// DBOS: `recv` "waits for and consumes the next message to arrive in the queue for the
    /// specified topic" (https://docs.dbos.dev/python/tutorials/workflow-communication): the
    /// waiting workflow goes on when the message comes, not at a later poll. Here the run waits
    /// released; the send makes it due at once, and another process takes it up without the
    /// clock moving. A message that wakes a sleeping run does not end its sleep early.
    static func aSendWakesTheRunWaitingInReceive(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a send wakes the run waiting in receive at once, and ends no sleep early"
        let effects = WorkflowEffects()
        let checkout = Workflow("checkout") { (context, _: Int) -> String in
            let payment = try await context.receive(String.self, topic: "paid", timeout: .seconds(86_400))
            try await context.step("paid") { _ in effects.record("paid") }
            try await context.sleep(for: .seconds(3_600))
            try await context.step("ship") { _ in effects.record("ship") }
            return payment ?? "expired"
        }
        let registry = registered(checkout)
        let workflows = worker(journal, clock, registry, owner: "process-1")
        let handle = try await workflows.start(checkout, key: "checkout-2", input: 2)
        try await workflows.runDue()
        let other = worker(journal, clock, registry, owner: "process-2")
        try expect(try await other.runDue() == 0, check, "the waiting run was due before any message")
        try await workflows.send("p-9", to: "checkout-2", topic: "paid", id: "p-9")
        try expect(try await other.runDue() == 1, check, "the send did not make the waiting run due at once")
        try expect(effects.log == ["paid"], check, "after the send, the steps ran \(effects.log)")
        try await workflows.send("note", to: "checkout-2", topic: "notes", id: "n-1")
        try await other.runDue()
        try expect(
            try await handle.status() == .pending && effects.log == ["paid"], check,
            "a message to the sleeping run ended its sleep early: \(effects.log)")
        await clock.advance(by: .seconds(3_600))
        try expect(try await other.runDue() == 1, check, "at the end of its sleep, the run was not taken up")
        let answer = try await handle.result()
        try expect(answer == "p-9" && effects.log == ["paid", "ship"], check, "the run answered \(answer)")
    }
}
