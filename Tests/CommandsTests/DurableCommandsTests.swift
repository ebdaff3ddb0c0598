import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Testing

struct DurableCommandsTests {
    struct Note: JournaledCommand {
        static let journalKind = "test.note"
        let text: String
        var name: String { "note \(text)" }
        func execute() async throws {}
        func undo() async throws {}
    }

    struct Charge: JournaledStep {
        static let journalKind = "test.charge"
        let cents: Int
        var name: String { "charge \(cents)" }
        func execute(in context: DurableContext) async throws -> String { "pay-\(context.key)-\(cents)" }
        func compensate(_ output: String?, in context: DurableContext) async throws {}
    }

    let stopped = JournalLease(owner: "stopped", duration: .seconds(30))

    @Test func aRegistryRoundTripsACodableCommand() throws {
        var registry = CommandRegistry()
        registry.register(Note.self)
        let entry = try registry.entry(Note(text: "hello"), key: "n1")
        #expect(entry.kind == "test.note" && entry.idempotencyKey == "n1")
        let command = try registry.command(for: entry)
        #expect((command as? Note)?.text == "hello")
        #expect(registry.kinds == ["test.note"])
    }

    /// A step is `Journaled` as a command is: the registry's entry, a queue's job and a
    /// schedule take either.
    @Test func aStepIsJournaledAsACommandIs() throws {
        var registry = CommandRegistry()
        registry.register(Charge.self)
        let entry = try registry.entry(Charge(cents: 990), key: "c1")
        #expect(entry.kind == "test.charge" && entry.idempotencyKey == "c1")
        #expect(try registry.step(for: entry).name == "charge 990")
        let job = try QueuedJob(Charge(cents: 5), key: "c2", after: .seconds(1))
        #expect(job.entry.kind == "test.charge" && job.delay == .seconds(1))
        let schedule = try QueueSchedule(
            "nightly", cron: "0 3 * * *", timeZone: .gmt, queue: "payments", command: Charge(cents: 7))
        #expect(schedule.kind == "test.charge")
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
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        var registry = CommandRegistry()
        registry.register(Note.self)
        let invoker = JournaledInvoker(journal: journal, registry: registry, clock: clock)
        for key in ["mail", "keep", "run"] {
            _ = try await journal.begin(try registry.entry(Note(text: key), key: key), lease: stopped)
        }
        await clock.advance(by: .seconds(30))
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
        #expect(journal.records[1].owner == nil, "a record left pending is given up")
        #expect(
            report.description
                == "recovery: 1 replayed, 0 compensated, 0 completed, 1 failed, 1 left pending, 0 unreadable")
    }

    @Test func aCompletedTransactionAnswersWithItsOutputsAndDoesNotRunAgain() async throws {
        let journal = InMemoryCommandJournal()
        let invoker = JournaledInvoker(journal: journal)
        let order = invoker.transaction(
            "order", key: "t", steps: [try DurableStep(Note(text: "a")), try DurableStep(Charge(cents: 990))])
        let first = try await order.run()
        let second = try await order.run()
        #expect(first.status == .completed && second.status == .alreadyCompleted)
        #expect(try second.output(ofStep: 1, as: String.self) == "pay-t/1-990")
        #expect(journal.records.map(\.entry.idempotencyKey) == ["t", "t/0", "t/1"])
        #expect(journal.records.map(\.status) == [.done, .done, .done])
    }

    @Test func aStepPerformedAloneReturnsItsRecordedOutputWhenRunAgain() async throws {
        let invoker = JournaledInvoker(journal: InMemoryCommandJournal())
        let first = try await invoker.perform(Charge(cents: 5), key: "c")
        let again = try await invoker.perform(Charge(cents: 5), key: "c")
        #expect(first == "pay-c-5" && again == first)
    }

    @Test func runningAStoppedWorkersTransactionGoesOnFromTheStepsDone() async throws {
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        let count = LockedCount()
        let steps = try ["a", "b"].map { name in
            try DurableStep("test.count", arguments: name, command: ClosureCommand(name) { count.add(name) })
        }
        let order = JournaledInvoker(journal: journal, clock: clock).transaction("order", key: "t", steps: steps)
        _ = try await journal.begin(order.entry, lease: stopped)
        _ = try await journal.append(order.stepEntry(0), lease: stopped)
        try await journal.settle("t/0", as: .done(output: nil), lease: stopped)  // the worker stops after step a
        await #expect(throws: CommandJournalError.busy(key: "t", owner: "stopped")) { try await order.run() }
        await clock.advance(by: .seconds(30))
        try await order.run()
        #expect(count.names == ["b"])
        #expect(journal.records.map(\.status) == [.done, .done, .done])
        #expect(journal.records.first?.attempts == 2)
    }

    @Test func aCancelledTransactionStillCompensatesWhatItDid() async throws {
        let clock = ManualClock()
        let journal = InMemoryCommandJournal(clock: clock)
        let trace = Trace()
        let invoker = JournaledInvoker(journal: journal, clock: clock)
        let charge = try DurableStep(
            "test.charge", arguments: "c",
            command: ClosureCommand("charge") {
                trace("charge")
            } undo: {
                try await Task.sleep(for: .zero)  // fails at once if the cancellation reached it
                trace("refund")
            })
        let wait = try DurableStep(
            "test.wait", arguments: "w", command: ClosureCommand("wait") { try await clock.sleep(for: .seconds(60)) })
        let order = invoker.transaction("order", key: "t", steps: [charge, wait])
        let task = Task { try await order.run() }
        await clock.waitForSleepers(count: 2)  // the step, and the heartbeat
        task.cancel()
        let error = await #expect(throws: TransactionError.self) { try await task.value }
        #expect(error?.error is CancellationError)
        #expect(trace.lines == ["charge", "refund"])
        #expect(journal.records.map(\.status) == [.compensated, .compensated, .failed])
        #expect(journal.records.last?.failureReason == "cancelled")
    }
}

final class LockedCount: Sendable {
    private let storage = LockedValue<[String]>([])
    func add(_ name: String) { storage.withLock { $0.append(name) } }
    var names: [String] { storage.withLock { $0 } }
}
