import Commands

extension WorkflowConformance {
    /// DBOS: a workflow may start other workflows and wait for their results through their
    /// handles, and the start of a child, like its result, is recorded in the parent's
    /// history, so a parent that recovers neither starts it again nor runs it twice
    /// (https://docs.dbos.dev/python/tutorials/workflow-tutorial, "Child Workflows"); starting
    /// a workflow ID that exists answers that workflow (idempotency). Here a parent fans out
    /// two children, starts the first key again, and fans in; each child runs once, any worker
    /// runs them, and the parent, taken up again after a sleep, gets every result from its
    /// journal.
    static func childrenFanOutAndInAndReachTheirParentOnce(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "children fan out and in, each runs once and its result reaches the parent once (DBOS children)"
        let effects = WorkflowEffects()
        let square = squaring(effects)
        let sum = Workflow("sum") { (context, count: Int) -> Int in
            var children: [WorkflowChild<Int>] = []
            for number in 1...count {
                children.append(try await context.start(square, key: "\(context.key)-\(number)", input: number))
            }
            children.append(try await context.start(square, key: "\(context.key)-1", input: 1))
            var total = 0
            for child in children { total += try await child.result() }
            try await context.step("total") { [total] _ in effects.record("total \(total)") }
            try await context.sleep(for: .seconds(60))
            return total
        }
        let registry = registered(square, sum)
        let first = worker(journal, clock, registry, owner: "process-1")
        let handle = try await first.start(sum, key: "sum", input: 2)
        try await first.runDue()
        try expect(try await first.runDue() == 2, check, "the two children were not run: \(effects.log)")
        await clock.advance(by: .seconds(30))
        let second = worker(journal, clock, registry, owner: "process-2")
        try expect(try await second.runDue() == 1, check, "the parent was not taken up after its children")
        await clock.advance(by: .seconds(60))
        try await second.runDue()
        let total = try await handle.result()
        try expect(total == 6, check, "the parent answered \(total), not 1 + 4 + 1")
        try expect(
            effects.log.sorted() == ["square 1", "square 2", "total 6"], check, "the steps ran \(effects.log)")
        let kinds = try await journal.records(parentKey: "sum").map(\.entry.kind)
        let joins = kinds.filter { $0 == "behaviorkit.workflow.join" }.count
        try expect(kinds.count == 8 && joins == 3, check, "the parent's children are \(kinds)")
        let roots = try await journal.allRecords().filter { $0.entry.parentKey == nil }.map(\.id).sorted()
        try expect(roots == ["sum", "sum-1", "sum-2"], check, "the runs are \(roots)")
    }
}

extension WorkflowConformance {
    /// DBOS: awaiting a handle whose workflow failed raises that workflow's error, and a
    /// recovered parent gets the recorded outcome again. Here the parent catches its child's
    /// failure (naming the child), and, taken up again after a sleep, gets the same failure
    /// from its own journal while the child runs no more.
    static func aFailedChildFailsItsResultOnce(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a failed child's result throws its error in the parent, once written down (DBOS children)"
        let effects = WorkflowEffects()
        let broken = Workflow("broken") { (_, _: Int) -> Int in
            effects.record("broken")
            throw WorkflowEffects.Failure()
        }
        let parent = Workflow("parent") { (context, _: Int) -> String in
            let child = try await context.start(broken, key: "\(context.key)-child", input: 1)
            var outcome = "none"
            do {
                outcome = "\(try await child.result())"
            } catch {
                outcome = "\(error)"
            }
            try await context.sleep(for: .seconds(60))
            return outcome
        }
        let registry = registered(broken, parent)
        let workflows = worker(journal, clock, registry, owner: "process-1")
        let handle = try await workflows.start(parent, key: "parent", input: 1)
        for _ in 0..<3 {
            try await workflows.runDue()
            await clock.advance(by: .seconds(30))
        }
        await clock.advance(by: .seconds(60))
        try await workflows.runDue()
        let answer = try await handle.result()
        let expected = "\(WorkflowError.failed(key: "parent-child", reason: "boom"))"
        try expect(answer == expected, check, "the parent answered \(answer)")
        try expect(effects.log == ["broken"], check, "the child ran \(effects.log)")
    }
}
