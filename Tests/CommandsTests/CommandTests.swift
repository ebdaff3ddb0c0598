import Commands
import Testing

struct CommandTests {
    @Test func closureCommandRunsItsClosures() async throws {
        let trace = Trace()
        let command = ClosureCommand("Greet") {
            trace("hello")
        } undo: {
            trace("goodbye")
        }
        try await command.execute()
        try await command.undo()
        #expect(trace.lines == ["hello", "goodbye"])
        #expect(command.name == "Greet")
        #expect(command.canUndo)
    }

    @Test func closureCommandWithoutUndoCannotBeUndone() async throws {
        let command = ClosureCommand("Log") {}
        #expect(!command.canUndo)
        await #expect(throws: CommandError.cannotUndo(command: "Log")) { try await command.undo() }
        #expect(CommandError.cannotUndo(command: "Log").description == "the command 'Log' cannot be undone")
    }

    @Test func receiverCommandActsOnItsReceiver() async throws {
        let counter = Counter()
        let command = ReceiverCommand("Add 3", on: counter, coalescingKey: "add") {
            $0.add(3)
        } undo: {
            $0.add(-3)
        }
        try await command.execute()
        #expect(counter.value == 3)
        try await command.undo()
        #expect(counter.value == 0)
        #expect(command.coalescingKey == "add")
        #expect(command.receiver === counter)
        let oneWay = ReceiverCommand("Add 1", on: counter) { $0.add(1) }
        #expect(!oneWay.canUndo)
        await #expect(throws: CommandError.cannotUndo(command: "Add 1")) { try await oneWay.undo() }
    }

    @Test func compositeRunsInOrderAndUndoesInReverse() async throws {
        let trace = Trace()
        let macro = CompositeCommand("Macro", [Step("a", trace), Step("b", trace), Step("c", trace)])
        try await macro.execute()
        try await macro.undo()
        #expect(trace.lines == ["do a", "do b", "do c", "undo c", "undo b", "undo a"])
        #expect(macro.canUndo)
    }

    @Test func compositeIsAllOrNothing() async throws {
        let trace = Trace()
        let macro = CompositeCommand(
            "Macro", [Step("a", trace), Step("b", trace), Step("c", trace, failsExecute: true)])
        let error = await #expect(throws: TransactionError.self) { try await macro.execute() }
        #expect(trace.lines == ["do a", "do b", "undo b", "undo a"])
        #expect(error?.failedStep == TransactionError.Step(index: 2, name: "c"))
    }

    @Test func defaultsAreUndoableAndSeparate() {
        struct Plain: Command {
            var name: String { "plain" }
            func execute() async throws {}
            func undo() async throws {}
        }
        #expect(Plain().canUndo)
        #expect(Plain().coalescingKey == nil)
        #expect(Plain().coalesced(with: Plain()) == nil)
    }

    @Test func outcomesDescribeThemselves() {
        let trace = Trace()
        let finished = CommandOutcome.finished(Step("save", trace))
        let failed = CommandOutcome.failed(Step("send", trace), error: TestFailure("offline"))
        #expect(finished.description == "finished: save")
        #expect(failed.description == "failed: send: offline")
        #expect(finished.isFinished && !failed.isFinished)
        #expect(failed.command.name == "send")
    }
}
