import BehaviorKitSQLite
import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import GRDB
import Testing

struct SQLiteCommandJournalTests {
    let folder: TemporaryFolder
    /// A worker that stopped long ago: its leases have expired.
    let stopped = JournalLease(owner: "stopped", duration: .zero)

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func conforms() async throws {
        let counter = FileCounter()
        try await CommandJournalConformance.check { clock in
            try SQLiteCommandJournal(path: folder.path("conformance-\(counter.next()).journal"), clock: clock)
        }
    }

    @Test func twoJournalsOnOneFileShareARateLimit() async throws {
        let path = folder.path("shared-rate.journal")
        try await CommandJournalConformance.checkSharedRateLimits { clock in
            (try SQLiteCommandJournal(path: path, clock: clock), try SQLiteCommandJournal(path: path, clock: clock))
        }
    }

    @Test func runsWorkflows() async throws {
        let counter = FileCounter()
        try await WorkflowConformance.check { clock in
            try SQLiteCommandJournal(path: folder.path("workflows-\(counter.next()).journal"), clock: clock)
        }
    }

    @Test(arguments: SQLiteCommandJournal.Durability.allCases)
    func durabilityHoldsOnTheWriter(durability: SQLiteCommandJournal.Durability) async throws {
        let journal = try SQLiteCommandJournal(path: folder.path("durable.journal"), durability: durability)
        _ = try await journal.begin(CommandJournalEntry(idempotencyKey: "k", kind: "test"), lease: stopped)
        #expect(try await journal.synchronousSetting() == durability.rawValue)
        #expect(try await journal.journalMode() == "wal")
    }

    @Test func fullDurabilityIsTheDefault() async throws {
        let journal = try SQLiteCommandJournal(path: folder.path("default.journal"))
        #expect(journal.durability == .full)
        #expect(try await journal.synchronousSetting() == 2)
    }

    @Test func aKeyIsStoredOnceAcrossReopens() async throws {
        let path = folder.path("idempotent.journal")
        let entry = CommandJournalEntry(idempotencyKey: "order-1", kind: "bank.charge", payload: [1, 2])
        let first = try await SQLiteCommandJournal(path: path).begin(entry, lease: stopped).record
        let reopened = try SQLiteCommandJournal(path: path)
        let again = try await reopened.enqueue(entry, queue: "q", after: .zero)
        #expect(again == first)
        #expect(try await reopened.allRecords().count == 1)
        await #expect(throws: CommandJournalError.conflictingEntry(key: "order-1")) {
            _ = try await reopened.begin(
                CommandJournalEntry(idempotencyKey: "order-1", kind: "bank.refund"), lease: stopped)
        }
    }

    @Test func pendingRecordsSurviveAReopenAndAreReplayed() async throws {
        let path = folder.path("replay.journal")
        let effects = Effects()
        do {
            let journal = try SQLiteCommandJournal(path: path)
            _ = try await JournaledInvoker(journal: journal).run(effects.command("a"), as: effects.entry("a"))
            _ = try await journal.begin(effects.entry("b"), lease: stopped)  // the worker stops here
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
            _ = try await journal.begin(
                CommandJournalEntry(idempotencyKey: "old", kind: "legacy.fax", payload: [7]), lease: stopped)
            _ = try await journal.begin(effects.entry("b"), lease: stopped)
        }
        let journal = try SQLiteCommandJournal(path: path)
        let report = try await JournaledInvoker(journal: journal, registry: effects.registry).recover()
        #expect(report.unreadable == [.unregisteredKind("legacy.fax", key: "old")])
        #expect(report.unreadable.first?.description.contains("'legacy.fax'") == true)
        #expect(report.replayed == ["b"])
        let kept = try #require(try await journal.record(forKey: "old"))
        #expect(kept.status == .pending && kept.entry.payload == [7] && kept.owner == nil)
    }

    @Test func aHalfDoneTransactionIsCompensatedAfterAReopen() async throws {
        let path = folder.path("transaction.journal")
        let effects = Effects()
        do {
            let journal = try SQLiteCommandJournal(path: path)
            let order = JournaledInvoker(journal: journal, registry: effects.registry)
                .transaction("order", key: "t", steps: try ["x", "y", "z"].map(effects.step))
            _ = try await journal.begin(order.entry, lease: stopped)
            _ = try await journal.append(order.stepEntry(0), lease: stopped)
            try await journal.settle("t/0", as: .done(output: nil), lease: stopped)
            _ = try await journal.append(order.stepEntry(1), lease: stopped)
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
        let error = #expect(throws: SQLiteStoreError.self) { try SQLiteCommandJournal(path: path) }
        #expect(error?.code == .notADatabase)
        #expect(error?.description.hasPrefix("command journal \(path): not a SQLite database") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: 0x5A, count: 8192))
    }

    @Test func aTruncatedFileIsAnErrorNamingThePath() async throws {
        let path = folder.path("truncated.journal")
        do {
            let journal = try SQLiteCommandJournal(path: path)
            for index in 0..<400 {
                _ = try await journal.begin(
                    CommandJournalEntry(
                        idempotencyKey: "k\(index)", kind: "test", payload: Array(repeating: 1, count: 200)),
                    lease: stopped)
            }
            try await journal.checkpoint()
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let url = URL(fileURLWithPath: path)
        let data = try Data(contentsOf: url)
        try data.prefix(data.count / 2).write(to: url)
        let error = #expect(throws: SQLiteStoreError.self) { try SQLiteCommandJournal(path: path) }
        #expect(error?.code == .corrupt)
        #expect(error?.description.hasPrefix("command journal \(path): corrupt or truncated") == true)
        let after = try Data(contentsOf: url)
        #expect(after == data.prefix(data.count / 2), "the file was rewritten")
    }

    @Test func aDatabaseThatIsNotAJournalIsAnErrorNamingThePath() throws {
        let path = folder.path("cache.sqlite")
        _ = try DiskCache<Int, String>(path: path)
        let error = #expect(throws: SQLiteStoreError.self) { try SQLiteCommandJournal(path: path) }
        #expect(error?.code == .notAJournal)
        #expect(error?.description.contains("\(path): not a command journal (it holds the tables cacheEntry") == true)
    }

    @Test func aWriteLockHeldTooLongIsAnErrorNamingTheFile() async throws {
        let path = folder.path("locked.journal")
        let journal = try SQLiteCommandJournal(path: path, busyTimeout: .milliseconds(50))
        let lock = try WriteLockHolder(path: path)
        await lock.acquire()
        let error = await #expect(throws: SQLiteStoreError.self) {
            _ = try await journal.begin(CommandJournalEntry(idempotencyKey: "k", kind: "test"), lease: stopped)
        }
        lock.release()
        #expect(error?.code == .locked)
        #expect(error?.description.hasPrefix("command journal \(path): another process held its write lock") == true)
    }
}

/// Holds a database's write lock on a thread of its own, as another process would.
final class WriteLockHolder: Sendable {
    private let queue: DatabaseQueue
    private let released = DispatchSemaphore(value: 0)

    init(path: String) throws { queue = try DatabaseQueue(path: path) }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { [queue, released] in
                try? queue.inDatabase { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    continuation.resume()
                    released.wait()
                    try db.execute(sql: "ROLLBACK")
                }
            }
        }
    }

    func release() { released.signal() }
}

final class FileCounter: Sendable {
    private let value = LockedValue(0)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}

/// Commands whose effects go to a log: "+name" when run, "-name" when undone; a name that
/// starts with "!" fails.
final class Effects: Sendable {
    struct Failure: Error {}

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
            if name.hasPrefix("!") { throw Failure() }
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
