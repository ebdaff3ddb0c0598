import Commands

extension WorkflowConformance {
    /// DBOS: "`DBOS.patch()` returns True for new workflows (those started after the patch is
    /// deployed) and False for old workflows (those started before the patch was deployed)"
    /// (https://docs.dbos.dev/python/tutorials/upgrading-workflows, patching); Temporal's
    /// `patched()` likewise. Here a run that slept before the patch was deployed keeps its old
    /// path when it is taken up by the new code; a new run takes the new path, and keeps it
    /// when it is taken up again after its own sleep.
    static func aPatchSendsNewRunsDownTheNewPathAndOldRunsDownTheOld(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a patch takes new runs down the new path, and runs from before it down the old (DBOS patch)"
        let effects = WorkflowEffects()
        let before = shipsAfterASleep("ship", effects, sleeping: .seconds(60))
        let after = Workflow("ship") { (context, order: Int) -> String in
            try await context.step("reserve") { _ in effects.record("reserve \(order)") }
            if try await context.patched("insure") {
                try await context.step("insure") { _ in effects.record("insure \(order)") }
            }
            try await context.sleep(for: .seconds(60))
            return try await context.step("ship") { _ in "shipped \(order)" }
        }
        let old = registered(before)
        let new = registered(after)
        let oldRelease = worker(journal, clock, old, owner: "old-release")
        let oldRun = try await oldRelease.start(before, key: "ship-1", input: 1)
        try await oldRelease.runDue()
        let newRelease = worker(journal, clock, new, owner: "new-release")
        let newRun = try await newRelease.start(after, key: "ship-2", input: 2)
        try await newRelease.runDue()
        await clock.advance(by: .seconds(60))
        try expect(try await newRelease.runDue() == 2, check, "after the sleeps, the runs were not both taken")
        let answers = [try await oldRun.result(), try await newRun.result()]
        try expect(answers == ["shipped 1", "shipped 2"], check, "the runs answered \(answers)")
        try expect(
            effects.log.sorted() == ["insure 2", "reserve 1", "reserve 2"], check, "the steps ran \(effects.log)")
        let kinds = try await journal.records(parentKey: "ship-2").map(\.entry.kind)
        try expect(
            kinds.count == 5 && kinds.filter { $0 == "behaviorkit.workflow.patch" }.count == 1, check,
            "the new run's children are \(kinds)")
    }
}
