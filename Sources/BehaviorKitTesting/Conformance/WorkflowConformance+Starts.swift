import Commands

extension WorkflowConformance {
    /// DBOS: "You can set an idempotency key for a workflow to guarantee it executes only
    /// once, even if called multiple times with that key"
    /// (https://docs.dbos.dev/python/tutorials/idempotency-tutorial); its result is the
    /// recorded output, or the recorded error.
    static func startingAKeyAgainAnswersHowItRan(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "starting a key again runs nothing and answers the recorded output or error (DBOS idempotency)"
        let effects = WorkflowEffects()
        let greet = greeting(effects)
        let fail = failing(effects)
        let workflows = worker(journal, clock, registered(greet, fail), owner: "process-1")
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
            try expectFailedWithBoom(thrown, "fail-1", check, "result \(attempt)")
            _ = try await workflows.start(fail, key: "fail-1", input: 1)
            try expect(try await workflows.runDue() == 0, check, "starting 'fail-1' again queued another run")
        }
        try expect(effects.count("fail") == 1, check, "the failing workflow ran \(effects.count("fail")) times")
    }
}

extension WorkflowConformance {
    /// DBOS: "Each time a workflow executes a step, DBOS records its output (or the exception
    /// it threw, if any)" (https://docs.dbos.dev/explanations/how-workflows-work), and a step
    /// may be retried a number of times first. Here a step that fails once succeeds on its
    /// retry; another fails for good, and the run, taken up again after a sleep, gets the same
    /// recorded error without running it.
    static func aFailedStepIsRecordedAndAnsweredAgain(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a step retries under its policy, and its last error is recorded and answered again unrun (DBOS)"
        let effects = WorkflowEffects()
        let flaky = Workflow("flaky") { (context, _: Int) -> String in
            let first = try await context.step("flaky", retry: RetryPolicy(maxAttempts: 2, initialDelay: .zero)) {
                _ -> String in
                effects.record("flaky")
                if effects.count("flaky") < 2 { throw WorkflowEffects.Failure() }
                return "recovered"
            }
            do {
                try await context.step("broken") { _ in
                    effects.record("broken")
                    throw WorkflowEffects.Failure()
                }
            } catch {
                effects.record("caught \(error)")
            }
            try await context.sleep(for: .seconds(60))
            return first
        }
        let registry = registered(flaky)
        let workflows = worker(journal, clock, registry, owner: "process-1")
        let handle = try await workflows.start(flaky, key: "flaky-1", input: 1)
        try await workflows.runDue()
        await clock.advance(by: .seconds(60))
        try await worker(journal, clock, registry, owner: "process-2").runDue()
        let answer = try await handle.result()
        try expect(answer == "recovered", check, "the run answered \(answer)")
        let expected = "caught \(WorkflowError.stepFailed(key: "flaky-1", step: "broken", reason: "boom"))"
        try expect(
            effects.log == ["flaky", "flaky", "broken", expected, expected], check, "the steps ran \(effects.log)")
    }
}
