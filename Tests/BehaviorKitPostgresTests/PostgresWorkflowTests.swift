import BehaviorKitTesting
import Commands
import Testing

@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresWorkflowTests {
    @Test func runsWorkflows() async throws {
        let journals = try await OpenJournals("workflows")
        try await WorkflowConformance.check { clock in try await journals.openPatient(clock: clock) }
        await journals.closeAll()
    }
}
