import BehaviorKitSQLite
import BehaviorKitSync
import Chains
import Commands
import Foundation
import Testing

/// The samples of BehaviorKitSQLite's getting-started guide (`Sources/BehaviorKitSQLite/
/// Documentation.docc/GettingStarted.md`), as written there but for the files' folder: each must
/// compile and do what its comments say (the reminder counts what it sends, to show it ran once).
struct SQLiteGettingStartedDocSamplesTests {
    struct Remind: JournaledCommand {
        static let journalKind = "shop.remind"
        let order: Int
        var name: String { "remind order \(order)" }
        func execute() async throws { Sent.count.withLock { $0 += 1 } }
        func undo() async throws {}
    }

    /// How many reminders were sent, across the process.
    enum Sent {
        static let count = LockedValue(0)
    }

    @Test func runCommandsThatSurviveACrash() async throws {
        let folder = try TemporaryFolder()
        var registry = CommandRegistry()
        registry.register(Remind.self)
        let journal = try SQLiteCommandJournal(path: folder.path("orders.journal"))
        let worker = JournaledInvoker(journal: journal, registry: registry)
        #expect(
            "\(try await worker.recover())"
                == "recovery: 0 replayed, 0 compensated, 0 completed, 0 failed, 0 left pending, 0 unreadable")
        let before = Sent.count.withLock { $0 }
        #expect(try await worker.perform(Remind(order: 42), key: "order-42/remind") == .executed)
        #expect(try await worker.perform(Remind(order: 42), key: "order-42/remind") == .alreadyDone)
        #expect(Sent.count.withLock { $0 } == before + 1)

        let reader = try SQLiteCommandJournalReader(path: folder.path("orders.journal"))
        #expect(try reader.allRecords().map { "\($0.status) \($0.id)" } == ["done order-42/remind"])
    }

    @Test func aFileThatIsNotAJournalIsRefusedAndKept() throws {
        let folder = try TemporaryFolder()
        let notes = folder.path("notes.txt")
        try Data("not a journal".utf8).write(to: URL(fileURLWithPath: notes))
        do {
            _ = try SQLiteCommandJournal(path: notes)
            Issue.record("opened a text file as a journal")
        } catch {
            #expect(error.code == .notADatabase)
            #expect("\(error)".hasPrefix("command journal \(notes): not a SQLite database ("))
            #expect(
                "\(error)".hasSuffix(
                    "the file is left as it is: restore it from a backup, or move it away to start a new journal"))
        }
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "not a journal")
    }

    @Test func cacheOnDisk() async throws {
        let folder = try TemporaryFolder()
        let disk = try DiskCache<Int, String>(
            path: folder.path("Caches/titles.sqlite"), timeToLive: .seconds(86_400), creatingFolder: true)
        let titles = TieredLookup<Int, String>([
            MemoryCache(countLimit: 500), disk, LookupSource(name: "catalog") { id in id == 42 ? "Blade Runner" : nil },
        ])
        #expect(try await titles.answer(for: 42).tier == "catalog")
        #expect(try await disk.lookup(42) == "Blade Runner")

        let restarted = TieredLookup<Int, String>([
            MemoryCache(countLimit: 500), try DiskCache<Int, String>(path: folder.path("Caches/titles.sqlite")),
            LookupSource(name: "catalog") { _ in nil },
        ])
        #expect(try await restarted.answer(for: 42).tier == "disk")
    }
}
