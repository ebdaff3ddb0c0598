import BehaviorKitTesting
import Commands
import Testing

struct WorkflowConformanceTests {
    @Test func inMemoryJournalRunsWorkflows() async throws {
        try await WorkflowConformance.check { clock in InMemoryCommandJournal(clock: clock) }
    }
}
