import BehaviorKitSync
import Commands

extension WorkflowConformance {
    /// The saga of DBOS's and Temporal's documentation (https://docs.dbos.dev/python/examples/
    /// "saga", https://docs.temporal.io/encyclopedia/sagas): when a workflow fails, the steps
    /// that finished undo their effects, newest first. Here the run's fourth step fails: the
    /// first and third, which carry a compensation, are compensated in reverse with their
    /// outputs and the attempt's fencing token; the second has none, and the failed step is not
    /// compensated. The run settles compensated, its result throws naming the cause, and the
    /// management API shows each compensation done.
    static func aFailedRunCompensatesItsFinishedStepsInReverse(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a failed run compensates its finished steps that have a compensation, newest first (saga)"
        let effects = WorkflowEffects()
        let order = Workflow("saga order") { (context, number: Int) -> Int in
            let reservation = try await context.step("reserve") { _ in
                "r-\(number)"
            } compensate: { step, output in
                effects.record("release \(output) \(step.fencingToken)")
            }
            try await context.step("note") { _ in effects.record("note") }
            try await context.step("charge") { _ in
                "p-\(number)"
            } compensate: { step, output in
                effects.record("refund \(output) \(step.fencingToken) \(step.key)")
            }
            try await context.step("ship") { _ -> Int in
                throw WorkflowEffects.Failure()
            } compensate: { _, _ in
                effects.record("unship")
            }
            return reservation.count
        }
        let workflows = worker(journal, clock, registered(order), owner: "process-1")
        let handle = try await workflows.start(order, key: "saga-1", input: 1)
        try await workflows.runDue()
        try expect(
            effects.log == ["note", "refund p-1 1 saga-1/2", "release r-1 1"], check,
            "the run did \(effects.log)")
        try await expectCompensated(handle, "saga-1", because: "boom", check)
        let details = try await journal.workflowRun("saga-1")
        let compensations = details?.compensations.map { "\($0.position) \($0.name) \($0.record.status)" }
        try expect(
            details?.record.status == .compensated && details?.state == "compensated"
                && compensations == ["2 charge compensated", "0 reserve compensated"], check,
            "the run reads \(String(describing: details?.record.status)), compensations \(String(describing: compensations))"
        )
    }

    /// A step answered from the journal is a finished step: a run taken up again after a sleep
    /// that then fails compensates it, though this attempt did not run it.
    static func aStepAnsweredFromTheJournalIsStillCompensated(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a step answered from the journal is compensated when the run fails later (saga)"
        let effects = WorkflowEffects()
        let order = Workflow("saga sleeper") { (context, _: Int) -> Int in
            try await context.step("reserve") { _ in
                effects.record("reserve")
            } compensate: { step in
                effects.record("release \(step.fencingToken)")
            }
            try await context.sleep(for: .seconds(60))
            try await context.step("charge") { _ in throw WorkflowEffects.Failure() }
            return 0
        }
        let workflows = worker(journal, clock, registered(order), owner: "process-1")
        let handle = try await workflows.start(order, key: "saga-2", input: 2)
        try await workflows.runDue()
        await clock.advance(by: .seconds(60))
        try await worker(journal, clock, registered(order), owner: "process-2").runDue()
        try expect(
            effects.log == ["reserve", "release 2"], check,
            "the run did \(effects.log) (the compensation sees the second attempt's token)")
        try await expectCompensated(handle, "saga-2", because: "boom", check)
    }

    /// A compensation is written down once done, so that a worker taking over a rollback
    /// whose worker stopped (frozen past its lease) runs only those not yet written, never one
    /// twice but the one in flight, as steps go (DBOS recovery). The frozen worker, thawed,
    /// writes nothing that counts and compensates nothing more.
    static func aRollbackTakenOverRunsOnlyTheCompensationsNotWritten(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a rollback taken over runs only the compensations not yet written (saga recovery)"
        let (effects, gate) = (WorkflowEffects(), WorkflowGate())
        let order = Workflow("saga frozen") { (context, _: Int) -> Int in
            for name in ["a", "b", "c"] {
                try await context.step(name) { _ in
                    name
                } compensate: { step, output in
                    effects.record("undo \(output) \(step.fencingToken)")
                    if output == "b" { await gate.pass() }
                }
            }
            throw WorkflowEffects.Failure()
        }
        let frozen = worker(journal, clock, registered(order), owner: "process-1")
        let handle = try await frozen.start(order, key: "saga-3", input: 3)
        let stopped = Task { try await frozen.runDue() }
        try await waitUntil(check, "the first worker never reached the second compensation") { gate.reached }
        let rolling = try await journal.workflowRun("saga-3")
        let written = rolling?.compensations.map { "\($0.name) \($0.record.status)" }
        try expect(
            rolling?.state == "compensating" && written == ["c compensated"], check,
            "midway the run reads \(String(describing: rolling?.state)), compensations \(String(describing: written))")
        await clock.advance(by: .seconds(31))
        let successor = worker(journal, clock, registered(order), owner: "process-2")
        try expect(try await successor.runDue() == 1, check, "the second worker did not take the rollback over")
        try await expectCompensated(handle, "saga-3", because: "boom", check)
        gate.open()
        _ = try await stopped.value
        try expect(
            effects.log.sorted() == ["undo a 2", "undo b 1", "undo b 2", "undo c 1"], check,
            "the compensations ran \(effects.log)")
        try await expectCompensated(journal, ["saga-3"], check)
    }

    /// Cancelling a run compensates it (Temporal: a cancelled saga runs its compensations): a
    /// sleeping run is marked, and the worker that takes it next compensates its finished steps
    /// and settles it compensated, naming the cancellation. A parent cancelled with its child
    /// is compensated once its child was cancelled; the child compensates too.
    static func cancellingARunCompensatesIt(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "cancelling a run compensates its finished steps, a parent's after its children's cancellation"
        let effects = WorkflowEffects()
        let child = Workflow("saga child") { (context, _: Int) -> Int in
            try await context.step("pick") { _ in
                1
            } compensate: { _, _ in
                effects.record("unpick")
            }
            return try await context.receive(Int.self, topic: "go", timeout: .seconds(86_400)) ?? 0
        }
        let parent = Workflow("saga parent") { (context, number: Int) -> Int in
            try await context.step("reserve") { _ in
                number
            } compensate: { _, _ in
                let mark = try await journal.record(forKey: CommandJournalCancellation.key(of: "\(context.key)-child"))
                effects.record("release (child cancelled: \(mark != nil))")
            }
            let started = try await context.start(child, key: "\(context.key)-child", input: number)
            return try await started.result()
        }
        let sleeper = Workflow("saga sleeping") { (context, _: Int) -> Int in
            try await context.step("hold") { _ in
                1
            } compensate: { _, _ in
                effects.record("unhold")
            }
            try await context.sleep(for: .seconds(3_600))
            try await context.step("never") { _ in effects.record("never") }
            return 1
        }
        let workflows = worker(journal, clock, registered(child, parent, sleeper), owner: "process-1")
        let sleeping = try await workflows.start(sleeper, key: "saga-4", input: 4)
        let parentRun = try await workflows.start(parent, key: "saga-5", input: 5)
        for _ in 0..<2 { try await workflows.runDue() }
        try await workflows.cancel("saga-4", reason: "the customer left")
        _ = try await journal.cancelWorkflowRun("saga-5", reason: "an operator's cancel")
        for _ in 0..<3 { try await workflows.runDue() }
        try expect(
            effects.log.sorted() == ["release (child cancelled: true)", "unhold", "unpick"], check,
            "the runs did \(effects.log)")
        for (key, handle) in [("saga-4", sleeping), ("saga-5", parentRun)] {
            try await expectCompensated(handle, key, because: "cancelled", check)
        }
        try await expectCompensated(journal, ["saga-4", "saga-5", "saga-5-child"], check)
    }

    /// A compensation that still fails after its policy's retries settles the run failed,
    /// naming it; under the default policy the others still run, under one that stops at the
    /// first failure (given at registration, over the workflow's own) they do not.
    static func aFailingCompensationSettlesTheRunFailedNamingIt(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a compensation that fails settles the run failed, naming it, under the policy (saga)"
        let effects = WorkflowEffects()
        func order(_ name: String) -> Workflow<Int, Int> {
            Workflow(name, compensation: CompensationPolicy(retries: 1)) { (context, _: Int) -> Int in
                try await context.step("reserve") { _ in
                    1
                } compensate: { _, _ in
                    effects.record("\(name) release")
                }
                try await context.step("charge") { _ in
                    2
                } compensate: { _, _ in
                    effects.record("\(name) refund")
                    throw WorkflowEffects.Failure()
                }
                throw WorkflowEffects.Failure()
            }
        }
        var registry = WorkflowRegistry()
        registry.register(order("going on"))
        registry.register(order("stopping"), compensation: CompensationPolicy(failureMode: .stopAtFirstFailure))
        let workflows = worker(journal, clock, registry, owner: "process-1")
        for name in ["going on", "stopping"] {
            let handle = try await workflows.start(order(name), key: name, input: 0)
            try await workflows.runDue()
            let thrown = await error { _ = try await handle.result() }
            guard case WorkflowError.failed(name, let reason)? = thrown as? WorkflowError,
                reason.contains("compensation of step 'charge'"), reason.contains("boom")
            else {
                throw WorkflowConformanceFailure(
                    check: check, detail: "\(name)'s result threw \(String(describing: thrown))")
            }
        }
        try expect(
            effects.log == ["going on refund", "going on refund", "going on release", "stopping refund"], check,
            "the compensations ran \(effects.log) (two tries of the refund, then the release unless stopped)")
        let details = try await journal.workflowRun("going on")
        let compensations = details?.compensations.map { "\($0.name) \($0.record.status)" }
        try expect(
            details?.record.status == .failed && compensations == ["charge failed", "reserve compensated"], check,
            "the run reads \(String(describing: details?.record.status)), compensations \(String(describing: compensations))"
        )
    }

    /// Checks that the result of `handle`, the run `key`, throws that its steps were
    /// compensated, for a reason that contains `cause`.
    static func expectCompensated<Output>(
        _ handle: WorkflowHandle<Output>, _ key: String, because cause: String, _ check: String
    ) async throws {
        let thrown = await error { _ = try await handle.result() }
        guard case WorkflowError.compensated(key, let reason)? = thrown as? WorkflowError, reason.contains(cause) else {
            throw WorkflowConformanceFailure(
                check: check, detail: "\(key)'s result threw \(String(describing: thrown))")
        }
    }

    /// Checks that the runs `keys` settled compensated.
    static func expectCompensated(
        _ journal: any CommandJournalManagement, _ keys: [String], _ check: String
    ) async throws {
        for key in keys {
            let run = try await journal.record(forKey: key)
            try expect(run?.status == .compensated, check, "\(key) is \(String(describing: run))")
        }
    }
}
