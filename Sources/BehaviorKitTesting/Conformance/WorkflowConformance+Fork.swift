import BehaviorKitSync
import Commands

extension WorkflowConformance {
    /// DBOS's `fork_workflow`: "start a new execution of a workflow from a specific step. The
    /// new workflow has a new ID; the steps before the chosen one are copied from the original
    /// and not executed again" (https://docs.dbos.dev/python/reference/contexts, "fork_workflow").
    /// Here a run failed in its last step, after a sleep; forked from there, the steps and the
    /// sleep before answer from the copy (the sleep, over, is not slept again) and the last
    /// runs (fixed); forked from the second step, it runs again. The
    /// original stays as it was; an unknown key, a position past what the run recorded, a new
    /// key in use and a run still pending are refused.
    static func aForkCopiesTheStepsBeforeItsPositionAndRunsTheRest(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a fork answers the steps before its position from a copy and runs the rest; the original stays"
        let effects = WorkflowEffects()
        let fixed = LockedValue(false)
        let order = Workflow("forked order") { (context, number: Int) -> String in
            let reservation = try await context.step("reserve") { step in
                effects.record("reserve \(step.key)")
                return "r-\(number)"
            }
            try await context.sleep(for: .seconds(60))
            let payment = try await context.step("charge") { step in
                effects.record("charge \(step.key)")
                return "p-\(number)"
            }
            try await context.step("ship") { step in
                effects.record("ship \(step.key)")
                if !fixed.withLock({ $0 }) { throw WorkflowEffects.Failure() }
            }
            return "\(reservation) \(payment) shipped"
        }
        let workflows = worker(journal, clock, registered(order), owner: "process-1")
        try await workflows.start(order, key: "fork-1", input: 1)
        try await workflows.runDue()
        await clock.advance(by: .seconds(60))
        try await workflows.runDue()
        let before = try await journal.records(parentKey: "fork-1")
        fixed.withLock { $0 = true }
        let fork = try await journal.forkWorkflowRun("fork-1", from: 3, as: "fork-1-again")
        try expect(
            fork.id == "fork-1-again" && fork.status == .pending && fork.workflowName == "forked order", check,
            "the fork is \(fork)")
        try await journal.forkWorkflowRun("fork-1", from: 2, as: "fork-1-charged")
        try await workflows.runDue()
        for key in ["fork-1-again", "fork-1-charged"] {
            // The copied sleep had ended: the forks do not sleep again.
            let status = try await journal.record(forKey: key)?.status
            try expect(status == .done, check, "\(key) is \(String(describing: status)) after one look")
            let answer = try await workflows.handle(order, key: key).result()
            try expect(answer == "r-1 p-1 shipped", check, "\(key) answered \(answer)")
        }
        try expect(
            effects.log.sorted() == [
                "charge fork-1-charged/2", "charge fork-1/2", "reserve fork-1/0", "ship fork-1-again/3",
                "ship fork-1-charged/3", "ship fork-1/3",
            ], check, "the steps ran \(effects.log.sorted())")
        let original = try await journal.record(forKey: "fork-1")
        let after = try await journal.records(parentKey: "fork-1")
        try expect(
            original?.status == .failed && after == before, check,
            "the original became \(String(describing: original)) with \(after.count) children")
        try await expectRefused(check, "forking an unknown key", CommandJournalError.self) {
            try await journal.forkWorkflowRun("nope", from: 0, as: "nope-again")
        }
        try await expectRefused(check, "forking past the recorded positions", CommandJournalError.self) {
            try await journal.forkWorkflowRun("fork-1", from: 5, as: "fork-1-far")
        }
        try await expectRefused(check, "forking into a key in use", CommandJournalError.self) {
            try await journal.forkWorkflowRun("fork-1", from: 0, as: "fork-1-again")
        }
        try await workflows.start(order, key: "fork-2", input: 2)
        try await expectRefused(check, "forking a pending run", CommandJournalError.self) {
            try await journal.forkWorkflowRun("fork-2", from: 0, as: "fork-2-again")
        }
        try expect(
            try await journal.record(forKey: "fork-1-far") == nil, check, "a refused fork wrote its key")
    }

    /// Checks that `body` throws an `E`.
    static func expectRefused<E: Error>(
        _ check: String, _ what: String, _ type: E.Type, _ body: () async throws -> Void
    ) async throws {
        let thrown = await error(of: body)
        try expect(thrown is E, check, "\(what) threw \(String(describing: thrown))")
    }
}
