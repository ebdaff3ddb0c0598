import BehaviorKitPostgres
import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Testing

@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresWorkflowTests {
    @Test func runsWorkflows() async throws {
        let journals = try await OpenJournals("workflows")
        let url = patient(journals.url)
        let opened = LockedValue<[PostgresCommandJournal]>([])
        var tables = 0  // a new table for every check
        try await WorkflowConformance.check { clock in
            tables += 1
            let journal = try await PostgresCommandJournal(
                url: url, table: "workflows_\(tables)", clock: clock, reconnection: patientReconnection)
            opened.withLock { $0.append(journal) }
            return journal
        }
        for journal in opened.withLock({ $0 }) { await journal.close() }
    }
}
