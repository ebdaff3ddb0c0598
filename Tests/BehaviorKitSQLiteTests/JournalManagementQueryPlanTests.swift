import BehaviorKitTesting
import Commands
import Foundation
import GRDB
import Testing

@testable import BehaviorKitSQLite

/// The management API's reads go through an index, never a scan of every record: SQLite's own
/// query plans, on a journal file.
struct JournalManagementQueryPlanTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// The plan of `sql` with `arguments`, one line per step.
    func plan(_ sql: String, _ arguments: StatementArguments, on path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
    }

    @Test func listingByStatusOrQueueAndCountingQueuesUseIndexes() async throws {
        let path = folder.path("plans.journal")
        let journal = try SQLiteCommandJournal(path: path)
        _ = try await journal.enqueue(CommandJournalEntry(idempotencyKey: "k", kind: "test"), queue: "q", after: .zero)
        try await journal.close()
        let cases: [(String, CommandJournalFilter, String)] = [
            ("status", CommandJournalFilter(statuses: [.failed]), "commandRecordStatus"),
            ("queue", CommandJournalFilter(queue: "q"), "commandRecordQueue"),
            ("every record", CommandJournalFilter(), "PRIMARY KEY"),
        ]
        let narrow = CommandJournalFilter(keyPrefix: "order-42")
        let (byKey, keyArguments) = CommandJournalSchema.listing(narrow, after: 10, limit: 51, byKey: true)
        let keySteps = try plan(byKey, keyArguments, on: path)
        #expect(keySteps.contains { $0.contains("sqlite_autoindex_commandRecord_1") }, "a narrow prefix: \(keySteps)")
        for (name, filter, index) in cases {
            let (sql, arguments) = CommandJournalSchema.listing(filter, after: 10, limit: 51)
            let steps = try plan(sql, arguments, on: path)
            #expect(steps.contains { $0.contains(index) }, "listing by \(name): \(steps)")
            #expect(!steps.contains { $0.hasPrefix("SCAN commandRecord") }, "listing by \(name): \(steps)")
        }
        let counts: [(sql: String, arguments: StatementArguments)] = [
            (CommandJournalSchema.queues, [0]), (CommandJournalSchema.held, []),
        ]
        for count in counts {
            let steps = try plan(count.sql, count.arguments, on: path)
            #expect(steps.contains { $0.contains("USING INDEX") }, "\(count.sql): \(steps)")
            #expect(!steps.contains { $0.hasPrefix("SCAN commandRecord") }, "\(count.sql): \(steps)")
        }
    }
}
