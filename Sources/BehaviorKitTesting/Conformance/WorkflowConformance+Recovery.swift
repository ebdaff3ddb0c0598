import BehaviorKitSync
import Commands

extension WorkflowConformance {
    /// DBOS: "If a workflow is interrupted for any reason (e.g., an executor restarts or
    /// crashes), when your program restarts the workflow automatically resumes execution from
    /// the last completed step" — a step with a saved output is not executed again
    /// (https://docs.dbos.dev/explanations/how-workflows-work). Here the first worker stops
    /// (frozen) in the second step; once its lease lapsed, another worker with the same registry
    /// takes the run up: the first step answers from the journal, and the frozen worker, when
    /// it thaws, writes nothing that counts and runs no further step.
    static func aRunResumesAfterItsLastFinishedStep(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a run taken over resumes after its last finished step, which does not run again (DBOS recovery)"
        let (effects, gate) = (WorkflowEffects(), WorkflowGate())
        let order = frozenOrder(effects, gate, shipping: true)
        let registry = registered(order)
        let frozen = worker(journal, clock, registry, owner: "process-1")
        let handle = try await frozen.start(order, key: "order-42", input: 42)
        let stopped = Task { try await frozen.runDue() }
        try await waitUntil(check, "the first worker never reached the second step") { gate.reached }
        await clock.advance(by: .seconds(31))
        let successor = worker(journal, clock, registry, owner: "process-2")
        try expect(try await successor.runDue() == 1, check, "the second worker did not take the run over")
        let answer = try await handle.result()
        try expect(answer == "reservation-42-1 payment-42", check, "the run answered \(answer)")
        gate.open()
        _ = try await stopped.value
        try expect(effects.count("reserve") == 1, check, "the finished step ran again: \(effects.log)")
        try expect(
            effects.count("ship") == 1, check, "the last step ran \(effects.count("ship")) times: \(effects.log)")
        try expect(
            effects.count("charge 1") == 1 && effects.count("charge 2") == 1, check,
            "the step in flight ran \(effects.log) (once per attempt, with its attempt's token)")
        let children = try await journal.records(parentKey: "order-42")
        try expect(
            children.count == 3 && children.allSatisfy { $0.status == .done }, check,
            "the run's children are \(children.map { "\($0.id) \($0.status)" })")
        try await expectDoneOnTheSecondAttempt(journal, "order-42", check)
    }

    /// DBOS stops a run whose function asks for another step than the one recorded at that
    /// position (`DBOSUnexpectedStepError`: "function %s was recorded when %s was expected.
    /// Check that your workflow is deterministic.", dbos-transact). Here the code changed while
    /// the run slept: the new code asks for a step where the journal recorded the sleep; the run
    /// fails, naming both, even though the new code catches the error.
    static func aRunAskingForAnotherStepThanRecordedStops(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a run that asks for another step than the journal recorded stops, naming both (DBOS determinism)"
        let effects = WorkflowEffects()
        let before = shipsAfterASleep("order", effects, sleeping: .seconds(3_600))
        let caught = LockedValue<(any Error)?>(nil)
        let after = Workflow("order") { (context, order: Int) -> String in
            try await context.step("reserve") { _ in effects.record("reserve \(order)") }
            do {
                try await context.step("charge") { _ in effects.record("charge") }
            } catch {
                caught.withLock { $0 = error }
            }
            return "swallowed"
        }
        let old = registered(before)
        let new = registered(after)
        let handle = try await worker(journal, clock, old, owner: "old-release").start(before, key: "order-7", input: 7)
        try await worker(journal, clock, old, owner: "old-release").runDue()
        await clock.advance(by: .seconds(3_600))
        try await worker(journal, clock, new, owner: "new-release").runDue()
        let expected = WorkflowError.nondeterministic(
            key: "order-7", position: 1, recorded: "a sleep", requested: "step 'charge'")
        let seen = caught.withLock { $0 }
        try expect(seen as? WorkflowError == expected, check, "the new code's step threw \(String(describing: seen))")
        let thrown = await error { _ = try await handle.result() }
        guard case WorkflowError.failed(_, let reason)? = thrown as? WorkflowError,
            reason == expected.description
        else {
            throw WorkflowConformanceFailure(check: check, detail: "the result threw \(String(describing: thrown))")
        }
        try expect(
            effects.count("reserve 7") == 1 && effects.count("charge") == 0, check,
            "the steps ran \(effects.log)")
    }

    /// The workflow "order" of the recovery checks: it reserves, then charges, stopping at
    /// `gate` the first time (a frozen process), then ships if `shipping`; it answers
    /// "reservation-<order>-<token> payment-<order>", the token the reserving attempt's.
    static func frozenOrder(_ effects: WorkflowEffects, _ gate: WorkflowGate, shipping: Bool) -> Workflow<Int, String> {
        Workflow("order") { (context, order: Int) -> String in
            let reservation = try await context.step("reserve") { step in
                effects.record("reserve")
                return "reservation-\(order)-\(step.fencingToken)"
            }
            let payment = try await context.step("charge") { step in
                effects.record("charge \(step.fencingToken)")
                await gate.pass()
                return "payment-\(order)"
            }
            if shipping { try await context.step("ship") { _ in effects.record("ship") } }
            return "\(reservation) \(payment)"
        }
    }

    /// Checks that the run of `key` is done, on its second attempt.
    static func expectDoneOnTheSecondAttempt(
        _ journal: any CommandJournalManagement, _ key: String, _ check: String
    ) async throws {
        let run = try await journal.record(forKey: key)
        try expect(run?.status == .done && run?.attempts == 2, check, "the run's record is \(String(describing: run))")
    }

    /// Waits (in real time, a bound on a hang) until `condition` holds.
    static func waitUntil(
        _ check: String, _ detail: @autoclosure () -> String, _ condition: () -> Bool
    ) async throws {
        for _ in 0..<30_000 where !condition() {
            try await Task.sleep(for: .milliseconds(1))
        }
        try expect(condition(), check, detail())
    }
}

/// A step that stops at the gate the first time it passes (a frozen process), until the
/// test opens it; cancelling does not let it through.
final class WorkflowGate: Sendable {
    private struct State {
        var reached = false
        var opened = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = LockedValue(State())

    /// Whether a step reached the gate.
    var reached: Bool { state.withLock { $0.reached } }

    /// Waits until the gate opens, the first time; goes through afterwards.
    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let through = state.withLock { state -> Bool in
                if state.reached || state.opened { return true }
                state.reached = true
                state.waiter = continuation
                return false
            }
            if through { continuation.resume() }
        }
    }

    /// Lets the waiting step through.
    func open() {
        let waiter = state.withLock { state in
            state.opened = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
