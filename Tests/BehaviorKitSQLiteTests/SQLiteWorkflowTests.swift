import BehaviorKitSQLite
import BehaviorKitTesting
import Commands
import Testing

struct SQLiteWorkflowTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func runsWorkflows() async throws {
        let counter = FileCounter()
        try await WorkflowConformance.check { clock in
            try SQLiteCommandJournal(path: folder.path("workflows-\(counter.next()).journal"), clock: clock)
        }
    }
}
