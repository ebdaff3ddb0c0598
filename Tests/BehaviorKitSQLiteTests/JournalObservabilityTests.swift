import BehaviorKitSQLite
import BehaviorKitTesting
import Commands
import GRDB
import InMemoryLogging
import Logging
import Metrics
import MetricsTestKit
import Testing

/// What the SQLite journal reports: its commits' times and sizes, and the commits that fail.
struct JournalObservabilityTests {
    let folder: TemporaryFolder
    let metrics = TestMetrics()
    let logs = InMemoryLogHandler()

    init() throws {
        folder = try TemporaryFolder()
    }

    var logger: Logger {
        var logger = Logger(label: "test") { _ in logs }
        logger.logLevel = .debug
        return logger
    }

    @Test func eachGroupCommitIsTimedAndItsSizeRecorded() async throws {
        let journal = try withMetricsFactory(metrics) {
            try SQLiteCommandJournal(path: folder.path("timed.journal"), logger: logger)
        }
        let lease = JournalLease(owner: "me", duration: .seconds(30))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    _ = try await journal.begin(
                        CommandJournalEntry(idempotencyKey: "k\(index)", kind: "t"), lease: lease)
                }
            }
            try await group.waitForAll()
        }
        let sizes = try metrics.expectRecorder("behaviorkit_journal_commit_batch_size", [("journal", "sqlite")])
        let times = try metrics.expectTimer("behaviorkit_journal_commit_duration_seconds", [("journal", "sqlite")])
        #expect(sizes.values.reduce(0, +) == 64, "every write is in one recorded batch")
        #expect(times.values.count == sizes.values.count && times.values.allSatisfy { $0 > 0 })
        #expect(try metrics.expectCounter("behaviorkit_journal_commit_errors", [("journal", "sqlite")]).totalValue == 0)
        let opened = try #require(logs.entries.first)
        #expect(opened.message.description == "journal opened" && opened.metadata["journal"] == "\(journal.path)")
    }

    @Test func aCommitThatFailsIsCountedAndLoggedAsAnError() async throws {
        let path = folder.path("empty.sqlite")
        let database = try DatabaseQueue(path: path)  // no journal table: every commit fails
        let journal = withMetricsFactory(metrics) {
            SQLiteCommandJournal(database: database, path: path, logger: logger)
        }
        let lease = JournalLease(owner: "me", duration: .seconds(30))
        await #expect(throws: SQLiteStoreError.self) {
            _ = try await journal.begin(CommandJournalEntry(idempotencyKey: "k", kind: "t"), lease: lease)
        }
        #expect(try metrics.expectCounter("behaviorkit_journal_commit_errors", [("journal", "sqlite")]).totalValue == 1)
        let failure = try #require(logs.entries.first { $0.message.description == "journal commit failed" })
        #expect(failure.level == .error && failure.metadata["writes"] == "1")
        #expect(failure.metadata["error"]?.description.contains("commandRecord") == true)
    }

    @Test func aClaimNamesTheWorkerEachRecordWasTakenOverFrom() async throws {
        let journal = try SQLiteCommandJournal(path: folder.path("claims.journal"))
        let stopped = JournalLease(owner: "stopped", duration: .zero)
        _ = try await journal.begin(CommandJournalEntry(idempotencyKey: "held", kind: "t"), lease: stopped)
        _ = try await journal.enqueue(
            CommandJournalEntry(idempotencyKey: "queued", kind: "t"), queue: "q", after: .zero)
        let me = JournalLease(owner: "me", duration: .seconds(30))
        let taken = try await journal.claim(1, from: nil, concurrency: nil, takingOverFrom: nil, lease: me)
        #expect(taken.records.map(\.id) == ["held"] && taken.previousOwners == ["held": "stopped"])
        let fresh = try await journal.claim(1, from: "q", concurrency: nil, takingOverFrom: nil, lease: me)
        #expect(fresh.records.map(\.id) == ["queued"] && fresh.previousOwners.isEmpty, "no worker held it")
    }
}
