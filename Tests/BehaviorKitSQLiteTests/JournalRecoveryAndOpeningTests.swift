import BehaviorKitSQLite
import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

/// The SQLite journal's recovery (two recoveries at once, a compensated key run again) and its
/// opening of files it did not write (a corrupt file, another database's WAL), which it never
/// modifies. Each test failed on the code of its time, before the fix.
struct JournalRecoveryAndOpeningTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func twoConcurrentRecoveriesRunEachPendingCommandOnce() async throws {
        let path = folder.path("twice.journal")
        let effects = Effects()
        let journal = try SQLiteCommandJournal(path: path)
        let stopped = JournalLease(owner: "stopped", duration: .zero)
        for index in 0..<50 { _ = try await journal.begin(effects.entry("c\(index)"), lease: stopped) }
        let first = JournaledInvoker(journal: journal, registry: effects.registry)
        let second = JournaledInvoker(journal: try SQLiteCommandJournal(path: path), registry: effects.registry)
        async let a = first.recover()
        async let b = second.recover()
        let reports = try await [a, b]
        #expect(effects.log.count == 50, "executed \(effects.log.count) times for 50 records")
        #expect(reports.map(\.replayed.count).reduce(0, +) == 50)
    }

    @Test func runningACompensatedKeyAgainSaysHowItSettled() async throws {
        let journal = try SQLiteCommandJournal(path: folder.path("settled.journal"))
        let effects = Effects()
        let invoker = JournaledInvoker(journal: journal, registry: effects.registry)
        let order = invoker.transaction("order", key: "t", steps: try ["x", "!y"].map(effects.step))
        await #expect(throws: TransactionError.self) { try await order.run() }
        await #expect(throws: (any Error).self, "a compensated key returned as if it succeeded") {
            try await order.run()
        }
    }

    @Test func aCorruptFileIsNeverModifiedByOpening() async throws {
        let original = folder.path("original.journal")
        do {
            let journal = try SQLiteCommandJournal(path: original)
            let lease = JournalLease(owner: "w", duration: .seconds(30))
            for index in 0..<300 {
                _ = try await journal.begin(
                    CommandJournalEntry(
                        idempotencyKey: "k\(index)", kind: "test", payload: Array(repeating: 7, count: 64)),
                    lease: lease)
            }
            try await journal.checkpoint()
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: original + suffix) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: original))
        var random = SplitMix64(seed: 8)  // the same damage in every run
        var modified: [String] = []
        var refused = 0
        for trial in 0..<120 {
            var damaged = bytes
            let offset = Int(random.next() % UInt64(damaged.count))
            let length = 1 + Int(random.next() % 64)
            for index in offset..<min(damaged.count, offset + length) {
                damaged[index] = UInt8(truncatingIfNeeded: random.next())
            }
            let path = folder.path("damaged-\(trial).journal")
            try damaged.write(to: URL(fileURLWithPath: path))
            do {
                _ = try SQLiteCommandJournal(path: path)
            } catch {
                refused += 1
                let after = try Data(contentsOf: URL(fileURLWithPath: path))
                if after != damaged { modified.append("trial \(trial): \(error)") }
            }
        }
        #expect(refused > 0)
        #expect(modified.isEmpty, "\(modified.count) of \(refused) refused files were modified: \(modified.prefix(3))")
    }

    @Test func aForeignWALIsRefusedAndBothFilesAreLeftAsTheyWere() async throws {
        let path = folder.path("journal.sqlite")
        do {
            let journal = try SQLiteCommandJournal(path: path)
            let lease = JournalLease(owner: "w", duration: .seconds(30))
            for index in 0..<20 {
                _ = try await journal.begin(
                    CommandJournalEntry(idempotencyKey: "k\(index)", kind: "test"), lease: lease)
            }
            try await journal.checkpoint()
        }
        let other = folder.path("other.sqlite")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        try ForeignDatabase.withWAL(at: other) {
            try FileManager.default.copyItem(atPath: other + "-wal", toPath: path + "-wal")
        }
        let journalBytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let walBytes = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        let error = #expect(throws: SQLiteStoreError.self) { try SQLiteCommandJournal(path: path) }
        #expect(error?.description.contains(path + "-wal") == true, "\(String(describing: error))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == journalBytes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")) == walBytes)
    }
}
