import Commands

extension WorkflowConformance {
    /// DBOS: a parent that awaits its child's handle (`handle.get_result()`) goes on when the
    /// child finishes (https://docs.dbos.dev/python/tutorials/workflow-tutorial, "Child
    /// Workflows"), not at a later poll. Here the clock never moves: the parent, released while
    /// its child waits for a message, is made due by the child's settlement in another process,
    /// and finishes there.
    static func aChildsSettlementWakesItsWaitingParent(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a child's settlement wakes its waiting parent at once, without a poll (DBOS children)"
        let child = Workflow("child") { (context, number: Int) -> Int in
            let added = try await context.receive(Int.self, topic: "go", timeout: .seconds(86_400))
            return number + (added ?? 0)
        }
        let parent = Workflow("parent") { (context, number: Int) -> Int in
            let started = try await context.start(child, key: "\(context.key)-child", input: number)
            return try await started.result() * 10
        }
        let registry = registered(child, parent)
        let first = worker(journal, clock, registry, owner: "process-1")
        let handle = try await first.start(parent, key: "parent", input: 1)
        try expect(try await first.runDue() == 1, check, "the parent was not run")
        try expect(try await first.runDue() == 1, check, "the child was not run")
        let other = worker(journal, clock, registry, owner: "process-2")
        try expect(try await other.runDue() == 0, check, "a run was due while the child waited for its message")
        try await first.send(2, to: "parent-child", topic: "go", id: "go-1")
        try expect(try await other.runDue() == 1, check, "the send did not make the child due")
        try expect(try await handle.status() == .pending, check, "the parent settled before it was taken up")
        try expect(try await other.runDue() == 1, check, "the child's settlement did not make its parent due")
        let answer = try await handle.result()
        try expect(answer == 30, check, "the parent answered \(answer), not (1 + 2) × 10")
    }
}

extension WorkflowConformance {
    /// DBOS: starting a workflow ID that exists answers that workflow. Here a parent starts as
    /// its child a key that was started before as a run of its own, with the same input: the
    /// parent gets that run's result, and the run ran once.
    static func aChildKeyStartedBeforeAnswersThatRun(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a parent starting a key that ran on its own gets that run's result (DBOS workflow IDs)"
        let effects = WorkflowEffects()
        let square = squaring(effects)
        let parent = Workflow("parent") { (context, number: Int) -> Int in
            try await context.start(square, key: "square-\(number)", input: number).result() + 1
        }
        let workflows = worker(journal, clock, registered(square, parent), owner: "process-1")
        try await workflows.start(square, key: "square-3", input: 3)
        try await workflows.runDue()
        let handle = try await workflows.start(parent, key: "parent", input: 3)
        try await workflows.runDue()
        let answer = try await handle.result()
        try expect(answer == 10 && effects.log == ["square 3"], check, "the parent answered \(answer), \(effects.log)")
    }
}
