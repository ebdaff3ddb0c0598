import Commands

extension WorkflowConformance {
    /// DBOS: a workflow ID identifies one workflow execution, and starting the ID again is the
    /// same execution (https://docs.dbos.dev/python/tutorials/workflow-tutorial, "Workflow IDs
    /// and Idempotency"). Here the journal keys of a run's steps are `"<key>/<position>"`, so a
    /// start key with a `"/"` (or a message to one, or a topic with one) is refused, naming
    /// the key, and the run `"order-42"` keeps its children to itself.
    static func aKeyWithASlashIsRefusedAndCollidesWithNoRun(
        _ journal: any CommandJournal, _ clock: ManualClock
    ) async throws {
        let check = "a run's key or topic with a '/' is refused, naming it, and no run's steps are touched"
        let effects = WorkflowEffects()
        let order = Workflow("order") { (context, order: Int) -> String in
            try await context.step("reserve") { _ in
                effects.record("reserve \(order)")
                return "reserved \(order)"
            }
        }
        let registry = registered(order)
        let workflows = worker(journal, clock, registry, owner: "process-1")
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
        try expect(children == ["order-42/0"], check, "the run's children are \(children)")
        let kept = try await journal.allRecords().map(\.id)
        try expect(kept == ["order-42", "order-42/0"], check, "the journal keeps \(kept)")
        try expect(effects.log == ["reserve 42"], check, "the steps ran \(effects.log)")
    }

    /// The reason a key with a `"/"` is refused.
    private static func slashReason(_ what: String) -> String {
        "a \(what) must not contain '/', which separates a run's key from its steps and messages"
    }
}
