import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

struct JournalTests {
    @Test func inMemoryJournalConforms() async throws {
        try await CommandJournalConformance.check { InMemoryCommandJournal() }
    }

    @Test func aBrokenJournalFailsTheConformanceCheck() async throws {
        /// Forgets every mark: its records stay pending.
        final class ForgetfulJournal: CommandJournal {
            let base = InMemoryCommandJournal()
            func append(_ entry: CommandJournalEntry) async throws -> CommandJournalRecord {
                try await base.append(entry)
            }
            func markDone(_ key: String) async throws {}
            func markFailed(_ key: String, reason: String) async throws {}
            func markCompensated(_ key: String) async throws {}
            func records(parentKey: String) async throws -> [CommandJournalRecord] {
                try await base.records(parentKey: parentKey)
            }
            func allRecords() async throws -> [CommandJournalRecord] { try await base.allRecords() }
            func record(forKey key: String) async throws -> CommandJournalRecord? { try await base.record(forKey: key) }
            func unfinished() async throws -> [CommandJournalRecord] { try await base.unfinished() }
        }
        await #expect {
            try await CommandJournalConformance.check { ForgetfulJournal() }
        } throws: { error in
            (error as? CommandJournalConformanceFailure)?.check == "markDone and markFailed finish records"
        }
    }

    @Test func unfinishedRecordsAreWhatACrashLeft() async throws {
        let journal = InMemoryCommandJournal()
        let cart = TestCart()
        _ = try await journal.run(
            AddGoods(cart: cart, item: "apple", count: 2), as: .init(idempotencyKey: "1", kind: "add"))
        _ = try await journal.append(.init(idempotencyKey: "2", kind: "add", payload: Array("pear 1".utf8)))
        // The process "crashes" here: record 2 was written down but never marked.
        let unfinished = try await journal.unfinished()
        #expect(unfinished.map(\.entry.idempotencyKey) == ["2"])
        #expect(journal.records.map(\.status) == [.done, .pending])
    }

    @Test func recordsRoundTripThroughJSON() throws {
        let record = CommandJournalRecord(
            sequence: 7, entry: .init(idempotencyKey: "order-1", kind: "bank.charge", payload: [1, 2, 3]),
            status: .failed,
            failureReason: "declined")
        let data = try JSONEncoder().encode(record)
        #expect(try JSONDecoder().decode(CommandJournalRecord.self, from: data) == record)
        #expect(record.id == "order-1")
    }

    @Test func errorsNameTheKey() {
        #expect(CommandJournalError.unknownKey("k").description == "no journal record has the idempotency key 'k'")
        #expect(
            CommandJournalError.conflictingEntry(key: "k").description
                == "the idempotency key 'k' is already used by a different command")
    }
}

struct DurableCommandsTests {
    struct Note: JournaledCommand {
        static let journalKind = "test.note"
        let text: String
        var name: String { "note \(text)" }
        func execute() async throws {}
        func undo() async throws {}
    }

    @Test func aRegistryRoundTripsACodableCommand() throws {
        var registry = CommandRegistry()
        registry.register(Note.self)
        let entry = try registry.entry(Note(text: "hello"), key: "n1")
        #expect(entry.kind == "test.note" && entry.idempotencyKey == "n1")
        let command = try registry.command(for: entry)
        #expect((command as? Note)?.text == "hello")
        #expect(registry.kinds == ["test.note"])
    }

    @Test func aRegistryNamesAnUnregisteredKindAndABadPayload() {
        var registry = CommandRegistry()
        registry.register(Note.self)
        #expect(throws: CommandRegistryError.unregisteredKind("fax", key: "k")) {
            try registry.command(for: CommandJournalEntry(idempotencyKey: "k", kind: "fax"))
        }
        let error = #expect(throws: CommandRegistryError.self) {
            try registry.command(for: CommandJournalEntry(idempotencyKey: "k", kind: "test.note", payload: [1]))
        }
        #expect(error?.description.hasPrefix("record 'k': its payload does not decode as 'test.note'") == true)
    }

    @Test func recoveryHandsCommandsToThePolicy() async throws {
        let journal = InMemoryCommandJournal()
        var registry = CommandRegistry()
        registry.register(Note.self)
        let invoker = JournaledInvoker(journal: journal, registry: registry)
        for key in ["mail", "keep", "run"] {
            _ = try await journal.append(try registry.entry(Note(text: key), key: key))
        }
        let report = try await invoker.recover { record in
            switch record.entry.idempotencyKey {
            case "mail": .markFailed("not resent after a crash")
            case "keep": .leavePending
            default: .replay
            }
        }
        #expect(report.replayed == ["run"] && report.failed == ["mail"] && report.leftPending == ["keep"])
        #expect(journal.records.map(\.status) == [.failed, .pending, .done])
        #expect(journal.records.first?.failureReason == "not resent after a crash")
        #expect(
            report.description
                == "recovery: 1 replayed, 0 compensated, 0 completed, 1 failed, 1 left pending, 0 unreadable")
    }

    @Test func aSettledTransactionDoesNotRunAgain() async throws {
        let journal = InMemoryCommandJournal()
        let invoker = JournaledInvoker(journal: journal, registry: CommandRegistry())
        let order = invoker.transaction("order", key: "t", steps: [try DurableStep(Note(text: "a"))])
        try await order.run()
        try await order.run()
        #expect(journal.records.map(\.entry.idempotencyKey) == ["t", "t/0"])
        #expect(journal.records.map(\.status) == [.done, .done])
    }
}

struct DurableTransactionRerunTests {
    @Test func runningAPendingTransactionAgainSkipsTheStepsDone() async throws {
        let journal = InMemoryCommandJournal()
        let count = LockedCount()
        let steps = try ["a", "b"].map { name in
            try DurableStep("test.count", arguments: name, command: ClosureCommand(name) { count.add(name) })
        }
        let order = DurableTransaction("order", key: "t", journal: journal, steps: steps)
        _ = try await journal.append(order.entry)
        _ = try await journal.append(order.stepEntry(0))
        try await journal.markDone("t/0")  // a crash after step a
        try await order.run()
        #expect(count.names == ["b"])
        #expect(journal.records.map(\.status) == [.done, .done, .done])
    }
}

final class LockedCount: Sendable {
    private let storage = LockedValue<[String]>([])
    func add(_ name: String) { storage.withLock { $0.append(name) } }
    var names: [String] { storage.withLock { $0 } }
}
