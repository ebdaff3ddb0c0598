import Commands

extension WorkflowConformance {
    /// DBOS: cancelling a workflow that is running stops it "at the start of its next step"
    /// (https://docs.dbos.dev/python/tutorials/workflow-management, "Cancelling Workflows"),
    /// and cancels its children. Here two runs in their callers' tasks
    /// (``Workflows/run(_:key:input:)``) and one a worker runs, each in a step, with a child
    /// started, are cancelled: one through ``Workflows/cancel(_:reason:)``, the others through
    /// the journal (as the console does, from another process). Each run's code stops at its next step with
    /// ``WorkflowError/cancelled(key:reason:)``, runs no further step, and settles failed,
    /// cancelled, with its child; its caller answers so, with no other worker running.
    static func cancellingARunItsCallerHoldsStopsItAtItsNextStep(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check =
            "cancelling a run its caller or a worker holds stops it at its next step, with its children (DBOS cancel)"
        let effects = WorkflowEffects()
        let gates = ["here": WorkflowGate(), "elsewhere": WorkflowGate(), "worker": WorkflowGate()]
        let child = Workflow("picking") { (context, _: Int) -> Int in
            try await context.step("pick") { _ in effects.record("\(context.key) picked") }
            return 1
        }
        let order = Workflow("held order") { (context, number: Int) -> Int in
            _ = try await context.start(child, key: "\(context.key)-pick", input: number)
            try await context.step("charge") { _ in
                effects.record("\(context.key) charged")
                await gates[context.key]?.pass()
            }
            try await ship(context, effects)
            return number
        }
        let workflows = worker(journal, clock, registered(child, order), owner: "process-1")
        for (key, gate) in gates.sorted(by: { $0.key < $1.key }) {
            let caller = Task {
                guard key == "worker" else { return try await workflows.run(order, key: key, input: 1) }
                try await workflows.start(order, key: key, input: 1)
                try await workflows.runDue()
                return try await workflows.handle(order, key: key).result()
            }
            try await waitUntil(check, "'\(key)' never reached its step") { gate.reached }
            let cancelled = await error {
                if key == "here" {
                    try await workflows.cancel(key, reason: "the customer left")
                } else {
                    _ = try await journal.cancel(key, reason: "an operator's cancel")
                }
            }
            try expect(cancelled == nil, check, "cancelling '\(key)' threw \(String(describing: cancelled))")
            gate.open()
            try await expectCancelled(caller, key, check)
        }
        try expect(
            effects.log.allSatisfy { !$0.hasSuffix("shipped") && !$0.hasSuffix("picked") }, check,
            "cancelled runs went on: \(effects.log)")
        let stops = effects.log.filter { $0.contains("stopped") }
        try expect(
            stops == [
                "elsewhere stopped: \(WorkflowError.cancelled(key: "elsewhere", reason: "an operator's cancel"))",
                "here stopped: \(WorkflowError.cancelled(key: "here", reason: "the customer left"))",
                "worker stopped: \(WorkflowError.cancelled(key: "worker", reason: "an operator's cancel"))",
            ], check, "the runs' code stopped with \(stops)")
        for key in ["here", "here-pick", "elsewhere", "elsewhere-pick", "worker", "worker-pick"] {
            let record = try await journal.record(forKey: key)
            try expect(
                record?.status == .failed && CommandJournalCancellation.isCancellation(record?.failureReason), check,
                "\(key) is \(record.map { "\($0.status) \($0.failureReason ?? "")" } ?? "missing")")
        }
        let pick = try await journal.record(forKey: "elsewhere-pick")?.failureReason ?? ""
        try expect(pick.contains("elsewhere"), check, "the child's cancellation does not name its parent: \(pick)")
    }
}

extension WorkflowConformance {
    /// DBOS: a cancelled workflow stops "at the start of its next step"
    /// (https://docs.dbos.dev/python/tutorials/workflow-management) — a step with nothing to
    /// write before it runs too. Here two runs in their callers' tasks received a message and
    /// are between it and their next step when they are cancelled: through
    /// ``Workflows/cancel(_:reason:)`` in their own process, which the step learns at once; and
    /// through the journal from another process, which the step learns once a third of a lease
    /// passed (its lease is renewed, and found taken). Neither step runs.
    static func aCancellationReachesAStepWithNothingToWriteBeforeIt(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a cancellation stops a run at a step that has nothing to write before it (DBOS cancel)"
        let effects = WorkflowEffects()
        let gates = ["local": WorkflowGate(), "remote": WorkflowGate()]
        let order = Workflow("received order") { (context, number: Int) -> Int in
            _ = try await context.receive(Int.self, topic: "go", timeout: .seconds(86_400))
            await gates[context.key]?.pass()
            try await ship(context, effects)
            return number
        }
        let workflows = worker(journal, clock, registered(order), owner: "process-1")
        for (key, gate) in gates.sorted(by: { $0.key < $1.key }) {
            try await workflows.send(1, to: key, topic: "go", id: "go")
            let caller = Task { try await workflows.run(order, key: key, input: 1) }
            try await waitUntil(check, "'\(key)' never received its message") { gate.reached }
            if key == "local" {
                try await workflows.cancel(key, reason: "here")
            } else {
                _ = try await journal.cancel(key, reason: "elsewhere")
                await clock.advance(by: .seconds(11))
            }
            gate.open()
            try await expectCancelled(caller, key, check)
        }
        try expect(
            effects.log == [
                "local stopped: \(WorkflowError.cancelled(key: "local", reason: "here"))",
                "remote stopped: \(WorkflowError.cancelled(key: "remote", reason: "elsewhere"))",
            ], check, "the runs went \(effects.log)")
    }
}

extension WorkflowConformance {
    /// The step "ship", which records that it ran, or the error that stopped the run before it.
    static func ship(_ context: WorkflowContext, _ effects: WorkflowEffects) async throws {
        do {
            try await context.step("ship") { _ in effects.record("\(context.key) shipped") }
        } catch {
            effects.record("\(context.key) stopped: \(error)")
            throw error
        }
    }

    /// Fails `check` unless `caller`, the caller of the run `key`, answers that it was cancelled.
    static func expectCancelled<T>(_ caller: Task<T, any Error>, _ key: String, _ check: String) async throws {
        let answer = await error { _ = try await caller.value }
        guard case WorkflowError.failed(key, let reason)? = answer as? WorkflowError,
            CommandJournalCancellation.isCancellation(reason)
        else {
            throw WorkflowConformanceFailure(
                check: check, detail: "the caller of '\(key)' answered \(String(describing: answer))")
        }
    }
}
