import Commands

extension WorkflowConformance {
    /// DBOS: "You can set an idempotency key for a workflow to guarantee it executes only
    /// once, even if called multiple times with that key"
    /// (https://docs.dbos.dev/python/tutorials/idempotency-tutorial); its result is the
    /// recorded output, or the recorded error.
    static func startingAKeyAgainAnswersHowItRan(_ journal: any CommandJournal, _ clock: ManualClock) async throws {
        let check = "starting a key again runs nothing and answers the recorded output or error (DBOS idempotency)"
        let effects = WorkflowEffects()
        let greet = Workflow("greet") { (context, name: String) -> String in
            try await context.step("greet") { _ in
                effects.record("greet \(name)")
                return "hello \(name)"
            }
        }
        let fail = Workflow("fail") { (context, _: Int) -> Int in
            effects.record("fail")
            throw WorkflowEffects.Failure()
        }
        var registry = WorkflowRegistry()
        registry.register(greet)
        registry.register(fail)
        let workflows = worker(journal, clock, registry, owner: "process-1")
        let first = try await workflows.start(greet, key: "greet-1", input: "ada")
        try expect(try await workflows.runDue() == 1, check, "the worker did not claim the started run")
        let answer = try await first.result()
        try expect(answer == "hello ada", check, "the run answered \(answer)")
        let again = try await workflows.start(greet, key: "greet-1", input: "ada")
        try expect(try await workflows.runDue() == 0, check, "starting 'greet-1' again queued another run")
        let second = try await again.result()
        try expect(second == "hello ada", check, "starting 'greet-1' again answered \(second)")
        try expect(effects.count("greet ada") == 1, check, "the step ran \(effects.count("greet ada")) times")
        let conflict = await error { _ = try await workflows.start(greet, key: "greet-1", input: "bob") }
        try expect(
            conflict as? CommandJournalError == .conflictingEntry(key: "greet-1"), check,
            "starting 'greet-1' with another input threw \(String(describing: conflict))")

        let failing = try await workflows.start(fail, key: "fail-1", input: 1)
        try await workflows.runDue()
        for attempt in 1...2 {
            let thrown = await error { _ = try await failing.result() }
            guard case WorkflowError.failed(let key, let reason)? = thrown as? WorkflowError,
                key == "fail-1", reason.contains("boom")
            else {
                throw WorkflowConformanceFailure(
                    check: check, detail: "result \(attempt) threw \(String(describing: thrown))")
            }
            _ = try await workflows.start(fail, key: "fail-1", input: 1)
            try expect(try await workflows.runDue() == 0, check, "starting 'fail-1' again queued another run")
        }
        try expect(effects.count("fail") == 1, check, "the failing workflow ran \(effects.count("fail")) times")
    }
}
