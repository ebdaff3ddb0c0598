import BehaviorKitSQLite
import BehaviorKitTesting
import Commands
import DurableMachines
import Foundation
import Testing

/// A write that finds the store idle commits in its caller's task; a caller cancelled before
/// or while it writes still gets its commit, as when every write ran in a drain task of its
/// own (GRDB's async write would have thrown `CancellationError` and committed nothing).
struct SQLiteCancelledCallerTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func aCancelledCallersMachineStepCommits() async throws {
        let store = try SQLiteMachineStore(path: folder.path("cancelled.machines"))
        let lights = DurableMachine("light", definition: SQLiteMachineStoreTests.light, store: store)
        try await lights.start("a", context: 0)
        let sent = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await lights.send(.go, to: "a", id: "go-1")
        }
        let step = try await sent.value
        #expect(step.configuration == [.green] && !step.isReplay)
        #expect(try await lights.instance("a")?.version == 2)
        try await store.close()
    }

    @Test func aCancelledCallersJournalWriteCommits() async throws {
        let journal = try SQLiteCommandJournal(path: folder.path("cancelled.journal"))
        let enqueued = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await journal.enqueue(
                CommandJournalEntry(idempotencyKey: "job-1", kind: "noop"), queue: "jobs", after: .zero)
        }
        _ = try await enqueued.value
        #expect(try await journal.record(forKey: "job-1")?.status == .pending)
        try await journal.close()
    }
}
