import BehaviorKitSQLite
import Commands
import Testing

struct JournalGroupCommitStressTests {
    @Test func concurrentAppendsShareTransactionsAndAreAllDurable() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("group.journal")
        let journal = try SQLiteCommandJournal(path: path)
        let invoker = JournaledInvoker(journal: journal, leaseDuration: .seconds(3600))  // no renewal in the count
        let tasks = 64
        let perTask = 8
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in 0..<perTask {
                        let key = "t\(task)-\(index)"
                        _ = try await invoker.run(
                            ClosureCommand(key) {}, as: CommandJournalEntry(idempotencyKey: key, kind: "test"))
                    }
                }
            }
            try await group.waitForAll()
        }
        let counts = journal.writeCounts
        #expect(counts.writes == tasks * perTask * 2)  // a begin and a settlement each
        #expect(counts.transactions < counts.writes / 2)
        let reopened = try SQLiteCommandJournal(path: path)
        let records = try await reopened.allRecords()
        #expect(records.count == tasks * perTask)
        #expect(records.allSatisfy { $0.status == .done })
        #expect(Set(records.map(\.sequence)).count == tasks * perTask)
        #expect(try await reopened.integrityCheck() == ["ok"])
    }
}
