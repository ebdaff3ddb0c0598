import Commands

extension WorkflowConformance {
    /// DBOS: cancelling a workflow stops it at its next step, and its children with it
    /// (https://docs.dbos.dev/python/tutorials/workflow-management, "Cancelling Workflows":
    /// "cancelling a workflow also cancels all of its children"). Here a parent waits for a child
    /// that waits for a message; cancelled through ``Workflows/cancel(_:reason:)``, or through the
    /// journal (as the console does), whose child learns it when the message wakes it, the parent
    /// and its child settle failed and neither runs another step, though the message comes.
    static func cancellingARunCancelsItsChildren(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "cancelling a run cancels its children, which run no further (DBOS cancel)"
        let effects = WorkflowEffects()
        let child = Workflow("child") { (context, number: Int) -> Int in
            let added = try await context.receive(Int.self, topic: "go", timeout: .seconds(86_400))
            try await context.step("go on") { _ in effects.record("\(context.key) went on") }
            return number + (added ?? 0)
        }
        let parent = Workflow("parent") { (context, number: Int) -> Int in
            let started = try await context.start(child, key: "\(context.key)-child", input: number)
            let result = try await started.result()
            try await context.step("go on") { _ in effects.record("\(context.key) went on") }
            return result
        }
        let workflows = worker(journal, clock, registered(child, parent), owner: "process-1")
        for key in ["here", "elsewhere"] {
            try await workflows.start(parent, key: key, input: 1)
            try await workflows.runDue()
            try await workflows.runDue()
        }
        try await workflows.cancel("here", reason: "the customer left")
        _ = try await journal.cancel("elsewhere", reason: "an operator's cancel")
        for key in ["here", "elsewhere"] { try await workflows.send(2, to: "\(key)-child", topic: "go", id: "go") }
        for _ in 0..<4 {
            try await workflows.runDue()
            await clock.advance(by: .seconds(30))
        }
        for key in ["here", "here-child", "elsewhere", "elsewhere-child"] {
            let record = try await journal.record(forKey: key)
            try expect(
                record?.status == .failed, check,
                "\(key) is \(record.map { "\($0.status) \($0.failureReason ?? "")" } ?? "missing")")
        }
        let reason = try await journal.record(forKey: "elsewhere-child")?.failureReason ?? ""
        try expect(reason.contains("elsewhere"), check, "the child's cancellation does not name its parent: \(reason)")
        try expect(effects.log.isEmpty, check, "cancelled runs went on: \(effects.log)")
    }
}
