import Commands

extension WorkflowFleet {
    /// Checks again what a run left on `journal` and in the ledger of `directory` (orders 0 to
    /// `workflows` − 1 started): prints every violation and the counts; returns them. For a run
    /// whose files were kept, and for the tests that alter them and expect the checks to see it.
    public static func recheck(
        journal location: String, directory: String, workflows: Int, console: Console
    ) async throws -> (WorkflowFleetReport, violations: [String]) {
        let journal = try await JournalLocation.open(location)
        let ledger = try FleetLedger(path: Fleet.ledgerPath(directory))
        let (report, violations) = try await check(journal, ledger, acknowledged: Array(0..<workflows), settled: true)
        try await journal.close()
        for violation in violations { console.print("violation: \(violation)") }
        console.print("workflow fleet check: \(report); \(violations.count) violations")
        return (report, violations)
    }
}
