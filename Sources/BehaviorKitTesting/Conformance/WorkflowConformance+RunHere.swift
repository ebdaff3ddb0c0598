import BehaviorKitSync
import Commands

extension WorkflowConformance {
    /// DBOS runs a workflow function called directly in the caller ("call a workflow
    /// function directly … it executes synchronously", https://docs.dbos.dev/python/tutorials/workflow-tutorial),
    /// under an idempotency key that runs it once. Here `Workflows.run(_:key:input:)` runs a new
    /// key in the caller's task, held under the caller's lease, and writes what a started run
    /// writes; calling again answers the recorded output or error without running.
    static func aRunInTheCallersTaskIsWrittenAsAStartedRun(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a run in the caller's task is held by the caller and written as a started run (DBOS direct call)"
        let effects = WorkflowEffects()
        let seen = LockedValue<CommandJournalRecord?>(nil)
        let greet = Workflow("greet") { (context, name: String) -> String in
            try await context.step("greet") { _ in
                effects.record("greet \(name)")
                let record = try await journal.record(forKey: context.key)
                seen.withLock { $0 = record }
                return "hello \(name)"
            }
        }
        let fail = failing(effects)
        let workflows = worker(journal, clock, registered(greet, fail), owner: "process-1")
        let answer = try await workflows.run(greet, key: "greet-1", input: "ada")
        try expect(answer == "hello ada", check, "the run answered \(answer)")
        let held = seen.withLock { $0 }
        try expect(
            held?.owner == "process-1" && held?.queue == "workflows" && held?.status == .pending, check,
            "while it ran, the run's record was \(String(describing: held))")
        try expect(try await workflows.runDue() == 0, check, "a worker claimed the run the caller settled")
        // The same records as a run started, claimed by a worker and settled.
        _ = try await workflows.start(greet, key: "greet-2", input: "ada")
        try await workflows.runDue()
        let here = try await journal.record(forKey: "greet-1")
        let started = try await journal.record(forKey: "greet-2")
        try expect(
            here?.entry.payload == started?.entry.payload && here?.entry.kind == started?.entry.kind
                && here?.queue == started?.queue && here?.status == .done && here?.output == started?.output
                && here?.attempts == started?.attempts, check,
            "the run is \(String(describing: here)); a started one is \(String(describing: started))")
        let children = try await journal.records(parentKey: "greet-1").map { [$0.entry.kind, "\($0.status)"] }
        let startedChildren = try await journal.records(parentKey: "greet-2").map { [$0.entry.kind, "\($0.status)"] }
        try expect(
            children == startedChildren, check, "its children are \(children), a started run's \(startedChildren)")
        let handled = try await workflows.handle(greet, key: "greet-1").result()
        try expect(handled == "hello ada", check, "its handle answered \(handled)")
        let again = try await workflows.run(greet, key: "greet-1", input: "ada")
        try expect(again == "hello ada", check, "running 'greet-1' again answered \(again)")
        try expect(effects.count("greet ada") == 2, check, "the steps ran \(effects.log)")
        let conflict = await error { _ = try await workflows.run(greet, key: "greet-1", input: "bob") }
        try expect(
            conflict as? CommandJournalError == .conflictingEntry(key: "greet-1"), check,
            "running 'greet-1' with another input threw \(String(describing: conflict))")
        for attempt in 1...2 {
            let thrown = await error { _ = try await workflows.run(fail, key: "fail-1", input: 1) }
            try expectFailedWithBoom(thrown, "fail-1", check, "call \(attempt)")
        }
        try expect(effects.count("fail") == 1, check, "the failing workflow ran \(effects.count("fail")) times")
    }

    /// DBOS: a workflow called with the id of one already running waits for that run's result
    /// (https://docs.dbos.dev/python/tutorials/idempotency-tutorial). Here a worker holds the
    /// run, stopped in its step; a caller running the same key runs nothing, and answers once
    /// the worker settled it.
    static func aRunInTheCallersTaskWaitsForAKeyHeldElsewhere(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "running in the caller's task a key another worker holds waits for its result, running nothing"
        let effects = WorkflowEffects()
        let gate = WorkflowGate()
        let slow = Workflow("slow") { (context, n: Int) -> Int in
            try await context.step("slow") { _ in
                effects.record("slow")
                await gate.pass()
                return n * 2
            }
        }
        let workflows = worker(journal, clock, registered(slow), owner: "process-1")
        _ = try await workflows.start(slow, key: "slow-1", input: 21)
        let running = Task { try await workflows.runDue() }
        try await waitUntil(check, "the worker never reached the step") { gate.reached }
        let caller = Task { try await workflows.run(slow, key: "slow-1", input: 21) }
        // Most often the caller finds the run held and waits; else it finds it settled: either way, it runs nothing.
        for _ in 0..<1_000 { await Task.yield() }
        gate.open()
        _ = try await running.value
        let answer = try await caller.value
        try expect(answer == 42, check, "the caller answered \(answer)")
        try expect(effects.count("slow") == 1, check, "the step ran \(effects.log)")
    }

    /// DBOS: "If a workflow is interrupted for any reason (e.g., an executor restarts or
    /// crashes) … the workflow automatically resumes execution from the last completed step"
    /// (https://docs.dbos.dev/explanations/how-workflows-work) — a workflow called directly
    /// too. Here the caller's process stops (frozen) in the second step; once its lease lapsed,
    /// a worker claims the run from the workflows' queue and finishes it; the frozen caller,
    /// when it thaws, answers the worker's result.
    static func aCallersRunIsFinishedByAWorkerOnceItsLeaseLapses(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check =
            "a run whose caller stopped is claimed from the queue once its lease lapses, and finished (DBOS recovery)"
        let (effects, gate) = (WorkflowEffects(), WorkflowGate())
        let order = frozenOrder(effects, gate, shipping: false)
        let registry = registered(order)
        let frozen = worker(journal, clock, registry, owner: "process-1")
        let caller = Task { try await frozen.run(order, key: "order-42", input: 42) }
        try await waitUntil(check, "the caller never reached the second step") { gate.reached }
        let successor = worker(journal, clock, registry, owner: "process-2")
        try expect(try await successor.runDue() == 0, check, "a worker claimed the run under the caller's live lease")
        await clock.advance(by: .seconds(31))
        try expect(try await successor.runDue() == 1, check, "no worker claimed the run once the lease lapsed")
        let answer = try await successor.handle(order, key: "order-42").result()
        try expect(answer == "reservation-42-1 payment-42", check, "the run answered \(answer)")
        gate.open()
        let thawed = try await caller.value
        try expect(thawed == answer, check, "the thawed caller answered \(thawed)")
        try expect(
            effects.count("reserve") == 1 && effects.count("charge 1") == 1 && effects.count("charge 2") == 1, check,
            "the steps ran \(effects.log)")
        try await expectDoneOnTheSecondAttempt(journal, "order-42", check)
    }

    /// DBOS: a workflow's sleep and `recv` are durable, and the workflow called directly
    /// returns once it finished (https://docs.dbos.dev/python/tutorials/workflow-communication).
    /// Here a run in the caller's task sleeps, then waits for a message: each time it is
    /// released as any run is, a worker takes it up when it is due, and the call answers the
    /// output once the worker settled it.
    static func aCallersRunThatWaitsIsReleasedAndTheCallAnswersWhenItEnds(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a run in the caller's task that sleeps or receives is released, and the call answers its end"
        let effects = WorkflowEffects()
        let patient = Workflow("patient") { (context, _: Int) -> String in
            try await context.step("before") { _ in effects.record("before") }
            try await context.sleep(for: .seconds(60))
            let paid = try await context.receive(String.self, topic: "paid", timeout: .seconds(3_600))
            return "paid \(paid ?? "never")"
        }
        let workflows = worker(journal, clock, registered(patient), owner: "process-1")
        let caller = Task { try await workflows.run(patient, key: "patient-1", input: 1) }
        try await waitUntilReleased(journal, "patient-1", check, "the sleeping run was not released")
        try expect(try await workflows.runDue() == 0, check, "a worker claimed the run before its sleep ended")
        await clock.advance(by: .seconds(60))
        try expect(try await workflows.runDue() == 1, check, "no worker took the run up after its sleep")
        try await waitUntilReleased(journal, "patient-1", check, "the receiving run was not released")
        try await workflows.send("p-1", to: "patient-1", topic: "paid", id: "p-1")
        try expect(try await workflows.runDue() == 1, check, "no worker took the run up after its message")
        let answer = try await caller.value
        try expect(answer == "paid p-1", check, "the call answered \(answer)")
        try expect(effects.count("before") == 1, check, "the first step ran \(effects.log)")
    }

    /// Waits (in real time, a bound on a hang) until the run `key` is pending and held by no worker.
    static func waitUntilReleased(
        _ journal: any CommandJournalManagement, _ key: String, _ check: String, _ detail: String
    ) async throws {
        for _ in 0..<30_000 {
            if let record = try await journal.record(forKey: key), record.status == .pending, record.owner == nil {
                return
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        throw WorkflowConformanceFailure(check: check, detail: detail)
    }
}
