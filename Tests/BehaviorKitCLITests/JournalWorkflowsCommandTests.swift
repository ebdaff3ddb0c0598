import BehaviorKitSQLite
import Commands
import Foundation
import Testing

/// `behaviorkit journal workflows list|show|cancel`, as an operator runs them on a SQLite journal
/// that workers of the test process write.
struct JournalWorkflowsCommandTests {
    struct Refusal: Error, CustomStringConvertible {
        var description: String { "the bank refused the card" }
    }

    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("JournalWorkflowsCommandTests-\(UUID().uuidString).sqlite").path

    func removeJournal() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    static let pick = Workflow("pick") { (context, number: Int) -> Int in
        try await context.receive(Int.self, topic: "go", timeout: .seconds(86_400)) ?? number
    }

    static let order = Workflow("order") { (context, number: Int) -> String in
        let reservation = try await context.step("reserve") { _ in "r-\(number)" }
        _ = try? await context.step("charge") { _ -> Int in throw Refusal() }
        _ = try await context.start(pick, key: "\(context.key)-pick", input: number)
        try await context.sleep(for: .zero)
        let paid = try await context.receive(String.self, topic: "paid", timeout: .seconds(86_400))
        return "\(reservation) \(paid ?? "unpaid")"
    }

    /// The workers of the test process, on `journal`, running `workflows`.
    func workers<each Input, each Output>(
        _ journal: SQLiteCommandJournal, _ workflows: repeat Workflow<each Input, each Output>
    ) -> Workflows {
        var registry = WorkflowRegistry()
        repeat registry.register(each workflows)
        return Workflows(
            registry, queue: CommandQueue("workflows", journal: journal),
            invoker: JournaledInvoker(journal: journal, owner: "worker-1", leaseDuration: .seconds(3_600)))
    }

    @Test func listAndShowARunWaitingForItsMessage() async throws {
        defer { removeJournal() }
        let journal = try SQLiteCommandJournal(path: path)
        let workflows = workers(journal, Self.pick, Self.order)
        try await workflows.start(Self.order, key: "order-42", input: 42)
        try await workflows.runDue()
        try await workflows.send("hello", to: "order-42", topic: "note", id: "n-1")
        try await journal.close()

        let list = try CLIRunner.run(["journal", "workflows", path])
        #expect(list.exitCode == 0)
        let lines = list.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first?.hasSuffix(" pending     order-42       order") == true)
        #expect(lines.dropFirst().first?.hasSuffix(" pending     order-42-pick  pick") == true)
        #expect(lines.last == "2 workflow runs")
        let done = try CLIRunner.run(["journal", "workflows", "list", path, "--status", "done"])
        #expect(done.standardOutput == "0 workflow runs\n")

        let show = try CLIRunner.run(["journal", "workflows", "show", path, "order-42"])
        #expect(show.exitCode == 0)
        let shown = show.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            shown.prefix(4) == [
                "run:         order-42", "workflow:    order", "state:       waiting for a message",
                "status:      pending",
            ])
        #expect(shown.contains("input:       42"))
        let positions = Array(shown.drop { $0 != "positions:" }.dropFirst().prefix(5))
        #expect(positions.count == 5)
        #expect(positions.first == "  0 step     reserve        done     \"r-42\"")
        #expect(positions.dropFirst().first == "  1 step     charge         failed   (the bank refused the card)")
        #expect(positions.dropFirst(2).first == "  2 start    order-42-pick  done")
        #expect(positions.dropFirst(3).first?.hasPrefix("  3 sleep    sleep          done     until ") == true)
        #expect(positions.last == "  4 receive  paid           pending")
        #expect(
            shown.drop { $0 != "children:" }.dropFirst().first?.hasSuffix(" pending     order-42-pick  pick") == true)
        #expect(
            shown.drop { $0 != "messages waiting:" }.dropFirst().first?.hasSuffix(
                " order-42/message/note/n-1  \"hello\"")
                == true)

        let json = try CLIRunner.run(["journal", "workflows", "show", path, "order-42", "--format", "json"])
        let run = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(run?["state"] as? String == "waiting for a message")
        let kinds = (run?["positions"] as? [[String: Any]])?.compactMap { $0["kind"] as? String }
        #expect(kinds == ["step", "step", "start", "sleep", "receive"])
        #expect((run?["children"] as? [[String: Any]])?.compactMap { $0["key"] as? String } == ["order-42-pick"])
        #expect((run?["messagesWaiting"] as? [Any])?.count == 1)

        let notARun = try CLIRunner.run(["journal", "workflows", "show", path, "order-42/0"])
        #expect(notARun.exitCode == 1)
        #expect(notARun.standardError.contains("not a workflow's run"))
        let missing = try CLIRunner.run(["journal", "workflows", "show", path, "nope"])
        #expect(missing.standardError == "error: no journal record has the idempotency key 'nope'\n")

        let cancel = try CLIRunner.run([
            "journal", "workflows", "cancel", path, "order-42", "--reason", "test over", "-y",
        ])
        #expect(cancel.exitCode == 0)
        #expect(cancel.standardOutput == "cancelled workflow run 'order-42': failed (cancelled: test over)\n")
        let after = try CLIRunner.run(["journal", "workflows", "list", path, "--status", "failed"])
        #expect(after.standardOutput.contains("order-42-pick  pick   (cancelled: its parent 'order-42' was cancelled)"))
        #expect(after.standardOutput.hasSuffix("2 workflow runs\n"))
    }

    /// A run its caller runs in its own task is cancelled from the command line (`journal workflows
    /// cancel`, or `journal cancel`): its code stops at its next step, and its caller's call answers
    /// the cancellation.
    @Test func cancelStopsARunItsCallerHolds() async throws {
        defer { removeJournal() }
        let journal = try SQLiteCommandJournal(path: path)
        let commands = [
            "held-1": (
                ["journal", "workflows", "cancel", path, "held-1", "--reason", "customer left", "-y"],
                "cancelled workflow run 'held-1': taken from its worker; it stops at its next step, and the attempt "
                    + "that takes it next settles it cancelled\n"
            ),
            "held-2": (
                ["journal", "cancel", path, "held-2", "--reason", "customer left", "-y"],
                "cancelled 'held-2': taken from its worker (attempt 2 is next); the next worker settles it cancelled "
                    + "(it stops at its next step)\n"
            ),
        ]
        for (key, (arguments, answer)) in commands.sorted(by: { $0.key < $1.key }) {
            let (reachedSteps, reached) = AsyncStream<Void>.makeStream()
            let (openings, open) = AsyncStream<Void>.makeStream()
            let held = Workflow("held") { (context, number: Int) -> Int in
                try await context.step("charge") { _ in
                    reached.yield()
                    for await _ in openings { break }
                }
                try await context.step("ship") { _ in Issue.record("the cancelled run \(context.key) shipped") }
                return number
            }
            let workflows = workers(journal, held)
            let caller = Task { try await workflows.run(held, key: key, input: 1) }
            for await _ in reachedSteps { break }
            let cancel = try CLIRunner.run(arguments)
            #expect(cancel.exitCode == 0)
            #expect(cancel.standardOutput == answer)
            open.yield()
            await #expect(throws: WorkflowError.failed(key: key, reason: "cancelled: customer left")) {
                try await caller.value
            }
        }
        try await journal.close()
        let show = try CLIRunner.run(["journal", "workflows", "show", path, "held-1"])
        #expect(show.standardOutput.contains("status:      failed (cancelled: customer left)\n"))
        #expect(show.standardOutput.contains("cancelled:   customer left\n"))
        #expect(!show.standardOutput.contains("ship"))
    }

    actor Carrier {
        var up = false
        func comeBack() { up = true }
    }

    /// A run that failed and compensated is shown with its compensations, then forked from its
    /// second step (`journal workflows fork`): the new run answers the first from the copy.
    @Test func showACompensatedRunAndForkIt() async throws {
        defer { removeJournal() }
        let journal = try SQLiteCommandJournal(path: path)
        let carrier = Carrier()
        let ship = Workflow("ship") { (context, number: Int) -> String in
            let box = try await context.step("pack") { _ in
                "box-\(number)"
            } compensate: { _, _ in
            }
            return try await context.step("label") { _ in
                guard await carrier.up else { throw Refusal() }
                return "label-\(box)"
            }
        }
        let workflows = workers(journal, ship)
        try await workflows.start(ship, key: "ship-1", input: 1)
        try await workflows.runDue()

        let show = try CLIRunner.run(["journal", "workflows", "show", path, "ship-1"])
        #expect(show.standardOutput.contains("status:      compensated\n"))
        #expect(show.standardOutput.contains("rolled back: step 'label' of the workflow 'ship-1' failed"))
        #expect(show.standardOutput.contains("compensations:\n  0 pack  compensated\n"))

        let far = try CLIRunner.run(["journal", "workflows", "fork", path, "ship-1", "--from", "3", "-y"])
        #expect(far.exitCode == 1)
        #expect(far.standardError.contains("position 3 is not one of the 2 positions the run settled"))
        let fork = try CLIRunner.run(["journal", "workflows", "fork", path, "ship-1", "--from", "1", "-y"])
        #expect(fork.exitCode == 0)
        #expect(
            fork.standardOutput
                == "forked 'ship-1' as 'ship-1-fork-1': pending, due now on queue 'workflows'; positions 0..<1 answer "
                + "from the copy; 'ship-1' stays as it was\n")
        await carrier.comeBack()
        try await workflows.runDue()
        #expect(try await workflows.handle(ship, key: "ship-1-fork-1").result() == "label-box-1")
        #expect(try await journal.record(forKey: "ship-1")?.status == .compensated)
        try await journal.close()
    }
}
