import Commands

extension WorkflowConformance {
    /// DBOS: a durable sleep records its wake-up time before it waits, so a run that "sleeps an
    /// hour and crashes after fifty minutes" has ten minutes left when it recovers
    /// (https://docs.dbos.dev/python/tutorials/workflow-tutorial, `DBOS.sleep`). Here the
    /// worker that began the sleep is gone; another process finds nothing due a second before
    /// the deadline, and finishes the run at it.
    static func aSleepNeverEndsEarlyAndSurvivesARestart(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a durable sleep never ends early, and another process finishes the run at its deadline"
        let effects = WorkflowEffects()
        let remind = sleeper("remind", effects, answer: { (order: Int) in "reminded \(order)" }) { context, _ in
            try await context.sleep(for: .seconds(3_600))
        }
        let answer = try await expectSleepSurvivesARestart(
            remind, key: "remind-1", input: 1, endingIn: .seconds(3_600), journal, clock, effects, check
        ).answer
        try expect(answer == "reminded 1", check, "the run answered \(answer)")
    }

    /// DBOS: "Each call to recv() waits for and consumes the next message to arrive in the
    /// queue for the specified topic, returning None if the wait times out"
    /// (https://docs.dbos.dev/python/tutorials/workflow-communication); a message sent twice
    /// under one id (its idempotency key) is delivered once.
    static func aMessageIsReceivedOncePerIdAndAReceiveTimesOut(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "each message id is received once, in order, and a receive answers nil at its timeout (DBOS recv)"
        let payments = Workflow("payments") { (context, _: Int) -> [String] in
            var received: [String] = []
            for timeout in [3_600, 3_600, 60] {
                let payment = try await context.receive(String.self, topic: "paid", timeout: .seconds(timeout))
                received.append(payment ?? "nothing")
            }
            return received
        }
        let registry = registered(payments)
        let workflows = worker(journal, clock, registry, owner: "process-1")
        let other = worker(journal, clock, registry, owner: "process-2")
        try await workflows.send("p-1", to: "order-9", topic: "paid", id: "p-1")
        try await other.send("p-1", to: "order-9", topic: "paid", id: "p-1")
        try await workflows.send("p-2", to: "order-9", topic: "paid", id: "p-2")
        try await workflows.send("elsewhere", to: "order-9", topic: "shipped", id: "s-1")
        let handle = try await workflows.start(payments, key: "order-9", input: 9)
        try await workflows.runDue()
        for _ in 0..<2 {
            await clock.advance(by: .seconds(30))
            try await other.runDue()
        }
        let answer = try await handle.result()
        try expect(answer == ["p-1", "p-2", "nothing"], check, "the run received \(answer)")
        let messages = try await journal.allRecords().filter { $0.id.hasPrefix("order-9/message/") }
        try expect(
            messages.map(\.id).sorted() == [
                "order-9/message/paid/p-1", "order-9/message/paid/p-2", "order-9/message/shipped/s-1",
            ],
            check, "the messages kept are \(messages.map(\.id))")
        let consumed = messages.filter { $0.status == .done }.map(\.id).sorted()
        try expect(
            consumed == ["order-9/message/paid/p-1", "order-9/message/paid/p-2"], check,
            "the messages consumed are \(consumed)")
    }

    /// DBOS: `recv` waits for the next message; the wait is durable ("The workflow can be safely
    /// restarted while waiting"). Here the message comes while the run waits, released; the next
    /// look, by another process, delivers it.
    static func aWaitingReceiveGetsAMessageSentLater(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a run waiting in receive gets the message sent meanwhile, at its next look"
        let checkout = Workflow("checkout") { (context, _: Int) -> String in
            let payment = try await context.receive(String.self, topic: "paid", timeout: .seconds(86_400))
            return payment ?? "expired"
        }
        let registry = registered(checkout)
        let workflows = worker(journal, clock, registry, owner: "process-1")
        let handle = try await workflows.start(checkout, key: "checkout-1", input: 1)
        try await workflows.runDue()
        try expect(try await handle.status() == .pending, check, "the run did not wait")
        try await workflows.send("p-7", to: "checkout-1", topic: "paid", id: "p-7")
        await clock.advance(by: .seconds(30))
        try await worker(journal, clock, registry, owner: "process-2").runDue()
        let answer = try await handle.result()
        try expect(answer == "p-7", check, "the run answered \(answer)")
    }
}
