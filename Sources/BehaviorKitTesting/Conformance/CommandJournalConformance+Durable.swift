import BehaviorKitSync
import Commands

extension CommandJournalConformance {
    static func compensatedAndChildRecordsAreListed(_ journal: any CommandJournal) async throws {
        let check = "markCompensated, records(parentKey:) and allRecords"
        _ = try await journal.append(entry("t"))
        _ = try await journal.append(entry("other"))
        for index in 0..<2 {
            _ = try await journal.append(
                CommandJournalEntry(idempotencyKey: "t/\(index)", kind: "step", parentKey: "t"))
        }
        try await journal.markCompensated("t/0")
        let children = try await journal.records(parentKey: "t").map { "\($0.entry.idempotencyKey):\($0.status)" }
        try expect(
            children == ["t/0:compensated", "t/1:pending"], check, "records(parentKey: \"t\") lists \(children)")
        let all = try await journal.allRecords().map(\.entry.idempotencyKey)
        try expect(all == ["t", "other", "t/0", "t/1"], check, "allRecords() lists \(all)")
        do {
            try await journal.markCompensated("nope")
            throw CommandJournalConformanceFailure(
                check: check, detail: "markCompensated of an unknown key did not throw")
        } catch let error as CommandJournalError {
            try expect(error == .unknownKey("nope"), check, "markCompensated of an unknown key threw \(error)")
        }
        do {
            _ = try await journal.append(CommandJournalEntry(idempotencyKey: "t/1", kind: "step", parentKey: "x"))
            throw CommandJournalConformanceFailure(check: check, detail: "an append with another parent did not throw")
        } catch let error as CommandJournalError {
            try expect(error == .conflictingEntry(key: "t/1"), check, "an append with another parent threw \(error)")
        }
    }

    static func recoveryReplaysAndKeepsUnregistered(_ journal: any CommandJournal) async throws {
        let check = "recovery replays pending commands and keeps unregistered ones"
        let effects = ConformanceEffects()
        let invoker = JournaledInvoker(journal: journal, registry: effects.registry)
        _ = try await journal.append(effects.entry("a"))
        _ = try await journal.append(CommandJournalEntry(idempotencyKey: "b", kind: "unknown.kind", payload: [1]))
        _ = try await journal.append(effects.entry("c"))
        let report = try await invoker.recover()
        try expect(report.replayed == ["a", "c"], check, "replayed \(report.replayed)")
        try expect(
            report.unreadable == [.unregisteredKind("unknown.kind", key: "b")], check, "unreadable \(report.unreadable)"
        )
        try expect(effects.log == ["+a", "+c"], check, "effects \(effects.log)")
        let pending = try await journal.unfinished().map(\.entry.idempotencyKey)
        try expect(pending == ["b"], check, "after recovery, unfinished() lists \(pending)")
    }

    static func failingTransactionIsCompensatedInTheJournal(_ journal: any CommandJournal) async throws {
        let check = "a failing durable transaction is compensated step by step in the journal"
        let effects = ConformanceEffects()
        let invoker = JournaledInvoker(journal: journal, registry: effects.registry)
        let order = invoker.transaction("order", key: "t", steps: try ["x", "y", "!z"].map(effects.step))
        do {
            try await order.run()
            throw CommandJournalConformanceFailure(check: check, detail: "the transaction did not throw")
        } catch let error as TransactionError {
            try expect(error.failedStep?.index == 2, check, "failed at \(String(describing: error.failedStep))")
        }
        try expect(effects.log == ["+x", "+y", "-y", "-x"], check, "effects \(effects.log)")
        let statuses = try await statuses(journal, ["t", "t/0", "t/1", "t/2"])
        try expect(statuses == "compensated compensated compensated failed", check, "statuses \(statuses)")
    }

    static func halfDoneTransactionIsCompensatedOnRecovery(_ journal: any CommandJournal) async throws {
        let check = "recovery compensates a half-done transaction in reverse"
        let effects = ConformanceEffects()
        let invoker = JournaledInvoker(journal: journal, registry: effects.registry)
        try await crashMidway(
            invoker.transaction("order", key: "t", steps: ["x", "y", "z"].map(effects.step)), journal)
        let report = try await invoker.recover()
        try expect(report.compensatedTransactions == ["t"], check, "report \(report)")
        try expect(effects.log == ["-y", "-x"], check, "effects \(effects.log)")
        let statuses = try await statuses(journal, ["t", "t/0", "t/1"])
        try expect(statuses == "compensated compensated compensated", check, "statuses \(statuses)")
    }

    static func halfDoneTransactionIsCompletedOnForwardRecovery(_ journal: any CommandJournal) async throws {
        let check = "forward recovery completes a half-done transaction"
        let effects = ConformanceEffects()
        let invoker = JournaledInvoker(journal: journal, registry: effects.registry)
        let order = invoker.transaction(
            "order", key: "t", recovery: .complete, steps: try ["x", "y", "z"].map(effects.step))
        try await crashMidway(order, journal)
        let report = try await invoker.recover()
        try expect(report.completedTransactions == ["t"], check, "report \(report)")
        try expect(effects.log == ["+y", "+z"], check, "effects \(effects.log)")
        let statuses = try await statuses(journal, ["t", "t/0", "t/1", "t/2"])
        try expect(statuses == "done done done done", check, "statuses \(statuses)")
    }

    /// Journals what a crash during step 2 leaves: the transaction pending, step 1 done, step 2 pending.
    static func crashMidway(_ transaction: DurableTransaction, _ journal: any CommandJournal) async throws {
        _ = try await journal.append(transaction.entry)
        _ = try await journal.append(transaction.stepEntry(0))
        try await journal.markDone("t/0")
        _ = try await journal.append(transaction.stepEntry(1))
    }

    static func statuses(_ journal: any CommandJournal, _ keys: [String]) async throws -> String {
        var statuses: [String] = []
        for key in keys { statuses.append(try await journal.record(forKey: key).map { "\($0.status)" } ?? "missing") }
        return statuses.joined(separator: " ")
    }
}

/// Commands whose effects are written to a log: "+name" when run, "-name" when undone; a name
/// starting with "!" fails.
final class ConformanceEffects: Sendable {
    struct Arguments: Codable, Sendable { var name: String }

    private let effects = LockedValue<[String]>([])
    var log: [String] { effects.withLock { $0 } }

    var registry: CommandRegistry {
        var registry = CommandRegistry()
        registry.register("test.effect", arguments: Arguments.self) { [self] in self.command($0.name) }
        return registry
    }

    func command(_ name: String) -> any Command {
        struct Failure: Error {}
        return ClosureCommand(name) { [effects] in
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
