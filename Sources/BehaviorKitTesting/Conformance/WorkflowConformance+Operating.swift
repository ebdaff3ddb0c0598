import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension WorkflowConformance {
    /// DBOS lists workflows and shows each one's steps with their outputs and errors, and
    /// cancels them (https://docs.dbos.dev/python/tutorials/workflow-management). Here the
    /// management API reads a run as an operator sees it (`workflowRun`): its steps with their
    /// outputs and errors, its child's start and the child, its sleep and when it ends, its wait
    /// for a message and the message waiting; lists runs only (`workflowRuns`); and cancels a
    /// run with its child from a process that runs no workflows (`cancelWorkflowRun`).
    static func aRunIsReadListedAndCancelledAsAnOperatorDoes(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "the management API shows a run's steps, sleeps, waits, children and messages, and cancels it"
        let child = Workflow("operated pick") { (context, _: Int) -> Int in
            try await context.receive(Int.self, topic: "go", timeout: .seconds(86_400)) ?? 0
        }
        let order = Workflow("operated order") { (context, number: Int) -> String in
            let reservation = try await context.step("reserve") { _ in "r-\(number)" }
            _ = try? await context.step("charge") { _ -> Int in throw WorkflowEffects.Failure() }
            _ = try await context.start(child, key: "\(context.key)-pick", input: number)
            try await context.sleep(for: .seconds(60))
            let paid = try await context.receive(String.self, topic: "paid", timeout: .seconds(3_600))
            return "\(reservation) \(paid ?? "unpaid")"
        }
        let workflows = worker(journal, clock, registered(child, order), owner: "process-1")
        try await workflows.start(order, key: "op-1", input: 1)
        try await workflows.runDue()
        guard let sleeping = try await journal.workflowRun("op-1") else {
            throw WorkflowConformanceFailure(check: check, detail: "no run 'op-1' to show")
        }
        let kinds = sleeping.positions.map(\.kind)
        try expect(kinds == [.step, .step, .start, .sleep], check, "the run's positions are \(kinds)")
        let names = sleeping.positions.map(\.name)
        try expect(names == ["reserve", "charge", "op-1-pick", "sleep"], check, "the positions are named \(names)")
        let reserved = sleeping.positions[0].record.output.map { String(decoding: $0, as: UTF8.self) }
        try expect(reserved == "\"r-1\"", check, "the first step's output reads \(String(describing: reserved))")
        let charge = sleeping.positions[1].record
        try expect(
            charge.status == .failed && charge.failureReason?.contains("boom") == true, check,
            "the failed step reads \(charge.status) \(charge.failureReason ?? "")")
        let sleep = sleeping.positions[3]
        try expect(
            sleep.wakesAt == sleep.record.createdAt.addingTimeInterval(60), check,
            "the sleep ends \(String(describing: sleep.wakesAt)), written \(sleep.record.createdAt)")
        try expect(
            sleeping.state == "sleeping" && sleeping.workflow == "operated order" && sleeping.parent == nil
                && sleeping.children.map(\.id) == ["op-1-pick"] && sleeping.messagesWaiting.isEmpty
                && sleeping.cancellation == nil, check,
            "the sleeping run reads \(sleeping.state), \(sleeping.workflow), children \(sleeping.children.map(\.id))")
        await clock.advance(by: .seconds(60))
        try await workflows.runDue()
        let waiting = try await journal.workflowRun("op-1")
        try expect(
            waiting?.state == "waiting for a message" && waiting?.positions.last?.kind == .receive, check,
            "after its sleep the run reads \(String(describing: waiting?.state))")
        let pick = try await journal.workflowRun("op-1-pick")
        try expect(
            pick?.parent == "op-1" && pick?.state == "waiting for a message", check,
            "the child reads \(String(describing: pick?.state)), parent \(String(describing: pick?.parent))")
        try await workflows.send("p-1", to: "op-1", topic: "paid", id: "p-1")
        let messaged = try await journal.workflowRun("op-1")
        try expect(
            messaged?.messagesWaiting.map(\.id) == ["op-1/message/paid/p-1"], check,
            "the message waiting reads \(String(describing: messaged?.messagesWaiting.map(\.id)))")
        try await workflows.runDue()
        let done = try await journal.workflowRun("op-1")
        try expect(
            done?.state == "done" && done?.messagesWaiting.isEmpty == true
                && done?.record.output.map { String(decoding: $0, as: UTF8.self) } == "\"r-1 p-1\"", check,
            "the settled run reads \(String(describing: done?.state)), messages \(done?.messagesWaiting.count ?? -1)")
        let runs = try await journal.workflowRuns().records.map(\.id)
        try expect(runs == ["op-1", "op-1-pick"], check, "the runs listed are \(runs)")
        let pending = try await journal.workflowRuns(matching: CommandJournalFilter(statuses: [.pending])).records
        try expect(pending.map(\.id) == ["op-1-pick"], check, "the pending runs listed are \(pending.map(\.id))")
        let notARun = await error { _ = try await journal.workflowRun("op-1/0") }
        try expect(notARun is WorkflowError, check, "showing a step as a run threw \(String(describing: notARun))")
        try expect(try await journal.workflowRun("nope") == nil, check, "an unknown key read as a run")
        // Cancelled by an operator's tool: the run and its child.
        try await workflows.start(order, key: "op-2", input: 2)
        try await workflows.runDue()
        let (cancelled, uncancelled) = try await journal.cancelWorkflowRun("op-2", reason: "test over")
        try expect(
            cancelled.status == .failed && uncancelled.isEmpty, check,
            "cancelling 'op-2' left it \(cancelled.status), children not cancelled \(uncancelled.map(\.key))")
        let cancelledRun = try await journal.workflowRun("op-2")
        try expect(
            cancelledRun?.cancellation == "test over" && cancelledRun?.children.map(\.status) == [.failed], check,
            "the cancelled run reads \(String(describing: cancelledRun?.cancellation)), "
                + "children \(String(describing: cancelledRun?.children.map(\.status)))")
    }
}
