import Commands

extension WorkflowConformance {
    /// DBOS: a workflow ID identifies one workflow execution, and starting the ID again is the
    /// same execution (https://docs.dbos.dev/python/tutorials/workflow-tutorial, "Workflow IDs
    /// and Idempotency"). Here the journal keys of a run's steps are `"<key>/<position>"`, so a
    /// start key with a `"/"` (or a message to one, or a topic with one) is refused, naming
    /// the key, and the run `"order-42"` keeps its children to itself; nor may a run start
    /// itself as its child (it would wait for itself).
    static func aKeyWithASlashIsRefusedAndCollidesWithNoRun(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a run's key or topic with a '/', or a run as its own child, is refused, naming the key"
        let effects = WorkflowEffects()
        let ping = Workflow("ping") { (_, number: Int) -> Int in number }
        let order = Workflow("order") { (context, order: Int) -> String in
            let itself = await WorkflowConformance.error {
                _ = try await context.start(ping, key: context.key, input: 0)
            }
            effects.record("itself: \(String(describing: itself))")
            return try await context.step("reserve") { _ in
                effects.record("reserve \(order)")
                return "reserved \(order)"
            }
        }
        let workflows = worker(journal, clock, registered(order), owner: "process-1")
        let handle = try await workflows.start(order, key: "order-42", input: 42)
        try await workflows.runDue()
        let refusals: [(String, WorkflowError, () async throws -> Void)] = [
            (
                "start", .invalidKey(key: "order-42/0", reason: slashReason("run's key")),
                { _ = try await workflows.start(order, key: "order-42/0", input: 0) }
            ),
            (
                "send to", .invalidKey(key: "order-42/0", reason: slashReason("run's key")),
                { try await workflows.send("p", to: "order-42/0", topic: "paid", id: "p") }
            ),
            (
                "send on", .invalidKey(key: "paid/0", reason: slashReason("topic")),
                { try await workflows.send("p", to: "order-42", topic: "paid/0", id: "p") }
            ),
        ]
        for (call, expected, body) in refusals {
            let thrown = await error(of: body)
            try expect(
                thrown as? WorkflowError == expected, check, "\(call) threw \(String(describing: thrown))")
        }
        let answer = try await handle.result()
        try expect(answer == "reserved 42", check, "the run 'order-42' answered \(answer)")
        let children = try await journal.records(parentKey: "order-42").map(\.id)
        try expect(children == ["order-42/1"], check, "the run's children are \(children)")
        let kept = try await journal.allRecords().map(\.id)
        try expect(kept == ["order-42", "order-42/1"], check, "the journal keeps \(kept)")
        let itself = WorkflowError.invalidKey(key: "order-42", reason: "a run cannot start itself as its own child")
        try expect(
            effects.log == ["itself: \(String(describing: itself as (any Error)?))", "reserve 42"], check,
            "the workflow ran \(effects.log)")
    }

    /// The reason a key with a `"/"` is refused.
    private static func slashReason(_ what: String) -> String {
        "a \(what) must not contain '/', which separates a run's key from its steps and messages"
    }
}
