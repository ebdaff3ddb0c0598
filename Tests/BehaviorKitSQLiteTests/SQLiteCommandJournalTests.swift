import BehaviorKitSQLite
import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

struct SQLiteCommandJournalTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func conforms() async throws {
        let counter = FileCounter()
        try await CommandJournalConformance.check {
            try SQLiteCommandJournal(path: folder.path("conformance-\(counter.next()).journal"))
        }
    }

    @Test(arguments: SQLiteCommandJournal.Durability.allCases)
    func durabilityHoldsOnTheWriter(durability: SQLiteCommandJournal.Durability) async throws {
        let journal = try SQLiteCommandJournal(path: folder.path("durable.journal"), durability: durability)
        _ = try await journal.append(CommandJournalEntry(idempotencyKey: "k", kind: "test"))
        #expect(try await journal.synchronousSetting() == durability.rawValue)
        #expect(try await journal.journalMode() == "wal")
    }

    @Test func fullDurabilityIsTheDefault() async throws {
        let journal = try SQLiteCommandJournal(path: folder.path("default.journal"))
        #expect(journal.durability == .full)
        #expect(try await journal.synchronousSetting() == 2)
    }

    @Test func appendingAKeyTwiceStoresItOnceAcrossReopens() async throws {
        let path = folder.path("idempotent.journal")
        let entry = CommandJournalEntry(idempotencyKey: "order-1", kind: "bank.charge", payload: [1, 2])
        let first = try await SQLiteCommandJournal(path: path).append(entry)
        let reopened = try SQLiteCommandJournal(path: path)
        let again = try await reopened.append(entry)
        #expect(again == first)
        #expect(try await reopened.allRecords().count == 1)
        await #expect(throws: CommandJournalError.conflictingEntry(key: "order-1")) {
            _ = try await reopened.append(CommandJournalEntry(idempotencyKey: "order-1", kind: "bank.refund"))
        }
    }

    @Test func pendingRecordsSurviveAReopenAndAreReplayed() async throws {
        let path = folder.path("replay.journal")
        let effects = Effects()
        do {
            let journal = try SQLiteCommandJournal(path: path)
            _ = try await journal.run(effects.command("a"), as: effects.entry("a"))
            _ = try await journal.append(effects.entry("b"))  // the crash comes here
        }
        let invoker = JournaledInvoker(journal: try SQLiteCommandJournal(path: path), registry: effects.registry)
        let report = try await invoker.recover()
        #expect(report.replayed == ["b"])
        #expect(effects.log == ["+a", "+b"])
        #expect(try await invoker.journal.unfinished().isEmpty)
    }

    @Test func anUnregisteredTypeIsReportedAndKeptWhileTheOthersRecover() async throws {
        let path = folder.path("unregistered.journal")
        let effects = Effects()
        do {
            let journal = try SQLiteCommandJournal(path: path)
            _ = try await journal.append(CommandJournalEntry(idempotencyKey: "old", kind: "legacy.fax", payload: [7]))
            _ = try await journal.append(effects.entry("b"))
        }
        let journal = try SQLiteCommandJournal(path: path)
        let report = try await JournaledInvoker(journal: journal, registry: effects.registry).recover()
        #expect(report.unreadable == [.unregisteredKind("legacy.fax", key: "old")])
        #expect(report.unreadable.first?.description.contains("'legacy.fax'") == true)
        #expect(report.replayed == ["b"])
        let kept = try #require(try await journal.record(forKey: "old"))
        #expect(kept.status == .pending && kept.entry.payload == [7])
    }

    @Test func aHalfDoneTransactionIsCompensatedAfterAReopen() async throws {
        let path = folder.path("transaction.journal")
        let effects = Effects()
        do {
            let journal = try SQLiteCommandJournal(path: path)
            let order = JournaledInvoker(journal: journal, registry: effects.registry)
                .transaction("order", key: "t", steps: try ["x", "y", "z"].map(effects.step))
            _ = try await journal.append(order.entry)
            _ = try await journal.append(order.stepEntry(0))
            try await journal.markDone("t/0")
            _ = try await journal.append(order.stepEntry(1))
        }
        let journal = try SQLiteCommandJournal(path: path)
        let report = try await JournaledInvoker(journal: journal, registry: effects.registry).recover()
        #expect(report.compensatedTransactions == ["t"])
        #expect(effects.log == ["-y", "-x"])
        #expect(try await journal.allRecords().map(\.status) == [.compensated, .compensated, .compensated])
    }

    @Test func aFileThatIsNotADatabaseIsAnErrorNamingThePath() throws {
        let path = folder.path("garbage.journal")
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SQLiteCommandJournalError.self) { try SQLiteCommandJournal(path: path) }
        #expect(error?.code == .notADatabase)
        #expect(error?.description.hasPrefix("command journal \(path): not a SQLite database") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: 0x5A, count: 8192))
    }

    @Test func aTruncatedFileIsAnErrorNamingThePath() async throws {
        let path = folder.path("truncated.journal")
        do {
            let journal = try SQLiteCommandJournal(path: path)
            for index in 0..<400 {
                _ = try await journal.append(
                    CommandJournalEntry(
                        idempotencyKey: "k\(index)", kind: "test", payload: Array(repeating: 1, count: 200)))
            }
            try await journal.checkpoint()
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let url = URL(fileURLWithPath: path)
        let data = try Data(contentsOf: url)
        try data.prefix(data.count / 2).write(to: url)
        let error = #expect(throws: SQLiteCommandJournalError.self) { try SQLiteCommandJournal(path: path) }
        #expect(error?.code == .corrupt)
        #expect(error?.description.hasPrefix("command journal \(path): corrupt or truncated") == true)
        let after = try Data(contentsOf: url)
        #expect(after.count == data.count / 2, "was \(data.count / 2), now \(after.count)")
        #expect(after == data.prefix(data.count / 2), "the file was rewritten")
    }

    @Test func aDatabaseThatIsNotAJournalIsAnErrorNamingThePath() throws {
        let path = folder.path("cache.sqlite")
        _ = try DiskCache<Int, String>(path: path)
        let error = #expect(throws: SQLiteCommandJournalError.self) { try SQLiteCommandJournal(path: path) }
        #expect(error?.code == .notAJournal)
        #expect(error?.description.contains("\(path): not a command journal (it holds the tables cacheEntry") == true)
    }
}

final class FileCounter: Sendable {
    private let value = LockedValue(0)
    func next() -> Int {
        value.withLock {
            $0 += 1; return $0
        }
    }
}

/// Commands whose effects go to a log: "+name" when run, "-name" when undone.
final class Effects: Sendable {
    struct Arguments: Codable, Sendable { var name: String }

    private let effects = LockedValue<[String]>([])
    var log: [String] { effects.withLock { $0 } }

    var registry: CommandRegistry {
        var registry = CommandRegistry()
        registry.register("test.effect", arguments: Arguments.self) { [self] in self.command($0.name) }
        return registry
    }

    func command(_ name: String) -> any Command {
        ClosureCommand(name) { [effects] in
            effects.withLock { $0.append("+\(name)") }
        } undo: { [effects] in
            effects.withLock { $0.append("-\(name)") }
        }
    }

    func entry(_ name: String) throws -> CommandJournalEntry {
        try CommandRegistry.entry(kind: "test.effect", arguments: Arguments(name: name), key: name)
    }

    func step(_ name: String) throws -> DurableStep {
        try DurableStep("test.effect", arguments: Arguments(name: name), command: command(name))
    }
}
