import BehaviorKitSync
import Commands

extension CommandJournalConformance {
    static func recoveryReplaysAndKeepsUnregistered(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "recovery replays what a stopped worker left, and keeps unregistered records"
        let (effects, invoker) = invoking(journal, clock, owner: "recoverer")
        _ = try await journal.begin(effects.entry("a"), lease: lease)
        _ = try await journal.begin(
            CommandJournalEntry(idempotencyKey: "b", kind: "unknown.kind", payload: [1]), lease: lease)
        _ = try await journal.begin(effects.entry("c"), lease: lease)
        let early = try await invoker.recover()
        try expect(early.isEmpty && effects.log.isEmpty, check, "recovery while the owner lived: \(early)")
        let report = try await recoverOnceLeasesLapse(invoker, clock)
        try expect(report.replayed == ["a", "c"], check, "replayed \(report.replayed)")
        try expect(
            report.unreadable == [.unregisteredKind("unknown.kind", key: "b")], check, "unreadable \(report.unreadable)"
        )
        try expect(effects.log == ["+a", "+c"], check, "effects \(effects.log)")
        let pending = try await journal.unfinished().map(\.entry.idempotencyKey)
        try expect(pending == ["b"], check, "after recovery, unfinished() lists \(pending)")
        let again = try await invoker.recover()
        try expect(again.isEmpty, check, "a second recovery at once did \(again)")
    }

    static func failingTransactionIsCompensatedInTheJournal(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a failing durable transaction is compensated step by step in the journal"
        let (effects, invoker) = invoking(journal, clock)
        let order = invoker.transaction("order", key: "t", steps: try ["x", "y", "!z"].map(effects.step))
        do {
            try await order.run()
            throw failure(check, "the transaction did not throw")
        } catch let error as TransactionError {
            try expect(error.failedStep?.index == 2, check, "failed at \(String(describing: error.failedStep))")
        }
        try expect(effects.log == ["+x", "+y", "-y(out-y)", "-x(out-x)"], check, "effects \(effects.log)")
        try await expectStatuses(
            journal, ["t", "t/0", "t/1", "t/2"], "compensated compensated compensated failed", check)
    }

    static func halfDoneTransactionIsCompensatedOnRecovery(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a worker that takes over a half-done transaction compensates it in reverse"
        let (effects, invoker) = invoking(journal, clock)
        try await crashMidway(journal, invoker, effects)
        try await expectRecovery(invoker, clock, \.compensatedTransactions, effects, ["-y", "-x(out-x)"], check)
        try await expectStatuses(journal, ["t", "t/0", "t/1"], "compensated compensated compensated", check)
    }

    static func halfDoneTransactionIsCompletedOnForwardRecovery(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "forward recovery completes a half-done transaction without running done steps again"
        let (effects, invoker) = invoking(journal, clock)
        try await crashMidway(journal, invoker, effects, recovery: .complete)
        try await expectRecovery(invoker, clock, \.completedTransactions, effects, ["+y", "+z"], check)
        try await expectStatuses(journal, ["t", "t/0", "t/1", "t/2"], "done done done done", check)
    }

    static func theStepInFlightIsCompensatedThoughUnwritten(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a worker taking over compensates the step after the last done one, which may have run unwritten"
        let (effects, invoker) = invoking(journal, clock)
        let order = invoker.transaction("order", key: "t", steps: try ["x", "y", "z"].map(effects.step))
        _ = try await journal.begin(order.entry, lease: lease)
        try await journal.settle(
            [.settle(order.stepEntry(0), as: .done(output: Array(#""out-x""#.utf8)))], lease: lease)
        try await expectRecovery(invoker, clock, \.compensatedTransactions, effects, ["-y", "-x(out-x)"], check)
        try await expectStatuses(
            journal, ["t", "t/0", "t/1", "t/2"], "compensated compensated compensated missing", check)
    }

    static func settledKeysAnswerHowTheySettled(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "running a settled key answers how it settled and runs nothing"
        let (effects, invoker) = invoking(journal, clock)
        let failing = invoker.transaction("order", key: "t", steps: try ["x", "!y"].map(effects.step))
        _ = try? await failing.run()
        try await expectError(
            .alreadySettled(key: "t", status: .compensated, reason: nil), check, "running a compensated transaction"
        ) { try await failing.run() }
        let good = invoker.transaction("order", key: "u", steps: try ["p", "q"].map(effects.step))
        try await good.run()
        let again = try await good.run()
        try expect(
            again.status == .alreadyCompleted && (try? again.output(ofStep: 0, as: String.self)) == "out-p", check,
            "running a completed transaction again gave \(again)")
        _ = try? await invoker.run(effects.command("!f"), as: effects.entry("!f"))
        try await expectError(
            .alreadySettled(key: "!f", status: .failed, reason: "effect !f fails"), check, "running a failed command"
        ) { _ = try await invoker.run(effects.command("!f"), as: effects.entry("!f")) }
        let result = try await invoker.run(effects.command("p"), as: effects.entry("p"))
        let repeated = try await invoker.run(effects.command("p"), as: effects.entry("p"))
        try expect(result == .executed && repeated == .alreadyDone, check, "results \(result), \(repeated)")
        try expect(effects.log == ["+x", "-x(out-x)", "+p", "+q", "+p"], check, "effects \(effects.log)")
    }

    static func concurrentRecoveriesSettleEachRecordOnce(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "two recoveries at once settle each record once"
        let effects = ConformanceEffects()
        for index in 0..<50 { _ = try await journal.begin(effects.entry("c\(index)"), lease: lease) }
        await clock.advance(by: .seconds(31))
        let first = JournaledInvoker(journal: journal, registry: effects.registry, clock: clock)
        let second = JournaledInvoker(journal: journal, registry: effects.registry, clock: clock)
        async let a = first.recover()
        async let b = second.recover()
        let replayed = try await a.replayed.count + b.replayed.count
        try expect(
            effects.log.count == 50 && replayed == 50, check, "\(effects.log.count) executions, \(replayed) replays")
    }

    static func stepOutputsReachLaterStepsAndCompensations(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "step outputs are journaled and reach later steps and compensations"
        let (effects, invoker) = invoking(journal, clock)
        let order = invoker.transaction("order", key: "t", steps: try ["x", "y<0", "!z<1"].map(effects.step))
        _ = try? await order.run()
        try expect(
            effects.log == ["+x", "+y(out-x)", "-y(out-y)", "-x(out-x)"], check, "effects \(effects.log)")
        let output = try await journal.record(forKey: "t/0")?.output
        try expect(output == Array(#""out-x""#.utf8), check, "step 0 output \(String(describing: output))")
    }

    static func aQueueWorkerRunsADelayedCommandOnce(
        _ journal: any CommandJournalManagement, _ clock: ManualClock
    ) async throws {
        let check = "a queue worker runs a delayed command once, when it falls due"
        let effects = ConformanceEffects()
        let queue = CommandQueue("q", journal: journal)
        try await queue.enqueue(effects.entry("later"), after: .seconds(5))
        let worker = QueueWorker(
            queue, invoker: JournaledInvoker(journal: journal, registry: effects.registry, clock: clock))
        let early = try await worker.runDue()
        await clock.advance(by: .seconds(5))
        let due = try await worker.runDue()
        let again = try await worker.runDue()
        try expect(
            early == 0 && due == 1 && again == 0 && effects.log == ["+later"], check,
            "settled \(early), \(due), \(again); effects \(effects.log)")
        let record = try await journal.record(forKey: "later")
        try expect(record?.status == .done, check, "the record is \(String(describing: record))")
    }

    /// Journals what a worker that stops during step 2 of the transaction "order" ("t", the
    /// steps x, y and z of `effects` on `invoker`, recovered as `recovery` says) leaves: the
    /// transaction pending under its (soon expired) lease, step 1 done with its output, step 2
    /// pending.
    static func crashMidway(
        _ journal: any CommandJournalManagement, _ invoker: JournaledInvoker, _ effects: ConformanceEffects,
        recovery: DurableTransactionRecovery = .compensate
    ) async throws {
        let transaction = invoker.transaction(
            "order", key: "t", recovery: recovery, steps: try ["x", "y", "z"].map(effects.step))
        _ = try await journal.begin(transaction.entry, lease: lease)
        _ = try await journal.append(transaction.stepEntry(0), lease: lease)
        try await journal.settle("t/0", as: .done(output: Array(#""out-x""#.utf8)), lease: lease)
        _ = try await journal.append(transaction.stepEntry(1), lease: lease)
    }

    /// Lets every lease taken so far lapse, recovers with `invoker`, and checks that the
    /// recovery settled the transaction "t" as `settled` says, with the effects `log`.
    static func expectRecovery(
        _ invoker: JournaledInvoker, _ clock: ManualClock, _ settled: KeyPath<CommandRecoveryReport, [String]>,
        _ effects: ConformanceEffects, _ log: [String], _ check: String
    ) async throws {
        let report = try await recoverOnceLeasesLapse(invoker, clock)
        try expect(report[keyPath: settled] == ["t"], check, "report \(report)")
        try expect(effects.log == log, check, "effects \(effects.log)")
    }

    /// Lets every lease taken so far lapse, then recovers with `invoker`.
    static func recoverOnceLeasesLapse(
        _ invoker: JournaledInvoker, _ clock: ManualClock
    ) async throws -> CommandRecoveryReport {
        await clock.advance(by: .seconds(31))
        return try await invoker.recover()
    }

    /// Checks that the records of `keys` have the statuses `expected`, separated by spaces
    /// ("missing" for a key with no record).
    static func expectStatuses(
        _ journal: any CommandJournalManagement, _ keys: [String], _ expected: String, _ check: String
    ) async throws {
        let statuses = try await statuses(journal, keys)
        try expect(statuses == expected, check, "statuses \(statuses)")
    }

    static func statuses(_ journal: any CommandJournalManagement, _ keys: [String]) async throws -> String {
        var statuses: [String] = []
        for key in keys { statuses.append(try await journal.record(forKey: key).map { "\($0.status)" } ?? "missing") }
        return statuses.joined(separator: " ")
    }
}
