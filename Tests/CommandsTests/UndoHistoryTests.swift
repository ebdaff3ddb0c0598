import Commands
import Testing

/// A history lives in one isolation domain: here the main actor, as in a UI.
@MainActor
struct UndoHistoryTests {
    let trace = Trace()

    @Test func performUndoRedo() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace))
        try await history.perform(Step("b", trace))
        try await history.undo()
        #expect(history.redoActionName == "b")
        try await history.redo()
        #expect(history.undoActionName == "b")
        try await history.undo()
        #expect(history.redoActionName == "b")
        try await history.undo()
        #expect(history.redoActionName == "a")
        #expect(trace.lines == ["do a", "do b", "undo b", "do b", "undo b", "undo a"])
        #expect(history.redoActionNames == ["a", "b"])
    }

    @Test func nothingToUndoOrRedoIsAClearAnswer() async throws {
        let history = UndoHistory()
        await #expect {
            try await history.undo()
        } throws: { ($0 as? UndoHistoryError)?.description == "nothing to undo" }
        await #expect {
            try await history.redo()
        } throws: { ($0 as? UndoHistoryError)?.description == "nothing to redo" }
        #expect(try await history.undoAll() == 0)
    }

    @Test func aNewCommandClearsRedo() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace))
        try await history.undo()
        #expect(history.canRedo)
        try await history.perform(Step("b", trace))
        #expect(!history.canRedo)
        #expect(history.undoActionNames == ["b"])
    }

    @Test func aFailedCommandIsNotRecorded() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace))
        await #expect(throws: TestFailure("b failed")) {
            try await history.perform(Step("b", trace, failsExecute: true))
        }
        #expect(history.undoActionNames == ["a"])
    }

    @Test func aFailedUndoLeavesTheStepInPlace() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace, failsUndo: true))
        await #expect {
            try await history.undo()
        } throws: { ($0 as? UndoHistoryError)?.description == "could not undo 'a': undo a failed" }
        #expect(history.undoActionName == "a")
        #expect(!history.canRedo)
    }

    @Test func aFailedRedoLeavesTheStepOnTheRedoStack() async throws {
        let history = UndoHistory()
        let counter = Counter()
        let flaky = ClosureCommand("flaky") {
            counter.add(1)
            if counter.value > 1 { throw TestFailure("offline") }
        } undo: {
        }
        try await history.perform(flaky)
        try await history.undo()
        await #expect {
            try await history.redo()
        } throws: { ($0 as? UndoHistoryError)?.description == "could not redo 'flaky': offline" }
        #expect(history.redoActionName == "flaky")
        #expect(!history.canUndo)
    }

    @Test func undoAtAnIndexUndoesOnlyThatStep() async throws {
        let history = UndoHistory()
        for name in ["a", "b", "c"] { try await history.perform(Step(name, trace)) }
        try await history.undo(at: 1)
        #expect(history.redoActionName == "b")
        #expect(history.undoActionNames == ["a", "c"])
        #expect(history.redoActionName == "b")
        await #expect {
            try await history.undo(at: 5)
        } throws: {
            ($0 as? UndoHistoryError)?.description == "no entry at index 5: the history has entries 0...1"
        }
        try await history.undo(at: 1)
        #expect(history.redoActionName == "c")
        try await history.redo()
        #expect(history.undoActionNames == ["a", "c"])
        #expect(trace.lines == ["do a", "do b", "do c", "undo b", "undo c", "do c"])
    }

    @Test func undoAllUndoesNewestFirst() async throws {
        let history = UndoHistory()
        for name in ["a", "b", "c"] { try await history.perform(Step(name, trace)) }
        #expect(try await history.undoAll() == 3)
        #expect(trace.lines.suffix(3) == ["undo c", "undo b", "undo a"])
        #expect(history.redoActionNames == ["a", "b", "c"])
    }

    @Test func undoAllStopsAtAFailure() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace))
        try await history.perform(Step("b", trace, failsUndo: true))
        try await history.perform(Step("c", trace))
        await #expect(throws: UndoHistoryError.self) { try await history.undoAll() }
        #expect(history.undoActionNames == ["a", "b"])
        #expect(history.redoActionNames == ["c"])
    }

    @Test func aGroupIsOneStep() async throws {
        let history = UndoHistory()
        try await history.group("Move shapes") { step in
            try await step(Step("a", trace))
            try await step.transaction("inner") { inner in try await inner(Step("b", trace)) }
            try await step(Step("c", trace))
        }
        #expect(history.undoActionNames == ["Move shapes"])
        try await history.undo()
        #expect(trace.lines == ["do a", "do b", "do c", "undo c", "undo b", "undo a"])
        try await history.redo()
        #expect(trace.lines.suffix(3) == ["do a", "do b", "do c"])
    }

    @Test func aFailedGroupIsRolledBackAndNotRecorded() async throws {
        let history = UndoHistory()
        await #expect(throws: TransactionError.self) {
            try await history.group("g") { step in
                try await step(Step("a", trace))
                try await step(Step("b", trace, failsExecute: true))
            }
        }
        #expect(trace.lines == ["do a", "undo a"])
        #expect(!history.canUndo)
    }

    @Test func anEmptyGroupRecordsNothing() async throws {
        let history = UndoHistory()
        let value = try await history.group("nothing") { _ in 7 }
        #expect(value == 7)
        #expect(!history.canUndo)
    }

    @Test func commandsSharingAKeyCoalesceIntoOneStep() async throws {
        let history = UndoHistory()
        try await history.perform(Step("drag 1", trace, key: "drag"))
        try await history.perform(Step("drag 2", trace, key: "drag"))
        try await history.perform(Step("drag 3", trace, key: "drag"))
        try await history.perform(Step("click", trace))
        try await history.perform(Step("drag 4", trace, key: "drag"))
        #expect(history.undoActionNames == ["drag 1", "click", "drag 4"])
        try await history.undo()
        try await history.undo()
        try await history.undo()
        #expect(trace.lines.suffix(5) == ["undo drag 4", "undo click", "undo drag 3", "undo drag 2", "undo drag 1"])
    }

    @Test func commandsThatFoldCoalesceIntoOneCommand() async throws {
        let history = UndoHistory()
        let counter = Counter()
        for amount in 1...4 {
            try await history.perform(Add(counter: counter, amount: amount, coalescingKey: "typing"))
        }
        #expect(history.undoActionNames == ["Add 10"])
        try await history.undo()
        #expect(counter.value == 0)
        try await history.redo()
        #expect(counter.value == 10)
    }

    @Test func coalescingStopsAtTheSavePoint() async throws {
        let history = UndoHistory()
        try await history.perform(Step("drag 1", trace, key: "drag"))
        history.markClean()
        try await history.perform(Step("drag 2", trace, key: "drag"))
        #expect(history.undoActionNames == ["drag 1", "drag 2"])
        try await history.undo()
        #expect(history.isClean)
    }

    @Test func theCountLimitForgetsTheOldestSteps() async throws {
        let history = UndoHistory(limit: 2)
        for name in ["a", "b", "c"] { try await history.perform(Step(name, trace)) }
        #expect(history.undoActionNames == ["b", "c"])
        #expect(try await history.undoAll() == 2)
        #expect(trace.lines.suffix(2) == ["undo c", "undo b"])
    }

    @Test func aZeroLimitKeepsNothing() async throws {
        let history = UndoHistory(limit: 0)
        try await history.perform(Step("a", trace))
        #expect(!history.canUndo)
        #expect(trace.lines == ["do a"])
    }

    @Test func theCostLimitForgetsTheOldestStepsButKeepsTheNewest() async throws {
        let history = UndoHistory(costLimit: 10)
        try await history.perform(Step("a", trace), cost: 4)
        try await history.perform(Step("b", trace), cost: 4)
        #expect(history.cost == 8)
        try await history.perform(Step("c", trace), cost: 4)
        #expect(history.undoActionNames == ["b", "c"])
        #expect(history.cost == 8)
        try await history.perform(Step("huge", trace), cost: 50)
        #expect(history.undoActionNames == ["huge"])
        try await history.undo()
        #expect(history.cost == 0)
    }

    @Test func theSavePointTracksUndoAndRedo() async throws {
        let history = UndoHistory()
        #expect(history.isClean)
        try await history.perform(Step("a", trace))
        #expect(!history.isClean)
        history.markClean()
        #expect(history.isClean)
        try await history.perform(Step("b", trace))
        #expect(!history.isClean)
        try await history.undo()
        #expect(history.isClean)
        try await history.undo()
        #expect(!history.isClean)
        try await history.redo()
        #expect(history.isClean)
    }

    @Test func theSavePointBecomesUnreachable() async throws {
        let history = UndoHistory(limit: 2)
        try await history.perform(Step("a", trace))
        history.markClean()
        try await history.undo()
        try await history.perform(Step("b", trace))  // the saved state was on the redo stack
        try await history.undo()
        #expect(!history.isClean)

        let limited = UndoHistory(limit: 1)
        limited.markClean()
        try await limited.perform(Step("c", trace))
        try await limited.perform(Step("d", trace))  // forgets "c": the clean state cannot come back
        try await limited.undo()
        #expect(!limited.isClean)

        let skipped = UndoHistory()
        try await skipped.perform(Step("e", trace))
        try await skipped.perform(Step("f", trace))
        skipped.markClean()
        try await skipped.undo(at: 0)
        #expect(!skipped.isClean)
        try await skipped.redo()
        #expect(!skipped.isClean)
    }

    @Test func actionNamesForMenus() async throws {
        let history = UndoHistory()
        let cart = TestCart()
        var status = history.status
        #expect(status.undoMenuTitle == "Undo" && status.redoMenuTitle == "Redo")
        #expect(!status.canUndo && !status.canRedo)
        try await history.perform(AddGoods(cart: cart, item: "apples", count: 2))
        try await history.perform(ReduceGoods(cart: cart, item: "apples", count: 1))
        try await history.undo()
        status = history.status
        #expect(status.undoMenuTitle == "Undo Add 2 apples")
        #expect(status.redoMenuTitle == "Redo Reduce 1 apples")
        #expect(status.undoCount == 1 && status.redoCount == 1)
    }

    @Test func aCommandThatCannotBeUndoneClearsTheHistory() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace))
        try await history.perform(Step("publish", trace, canUndo: false))
        #expect(!history.canUndo)
        #expect(!history.isClean)
        try await history.perform(Step("b", trace))
        #expect(history.undoActionNames == ["b"])
    }

    @Test func clearForgetsEverything() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace))
        try await history.perform(Step("b", trace))
        try await history.undo()
        history.clear()
        #expect(!history.canUndo)
        #expect(!history.canRedo)
        #expect(!history.isClean)
    }

    @Test func recordAddsAnExecutedCommand() async throws {
        let history = UndoHistory()
        await history.record(Step("already done", trace))
        #expect(trace.lines.isEmpty)
        try await history.undo()
        #expect(trace.lines == ["undo already done"])
    }

    @Test func changesAreStreamedStartingWithTheCurrentState() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace))
        let changes = history.changes()
        try await history.perform(Step("b", trace, key: "k"))
        try await history.perform(Step("c", trace, key: "k"))
        try await history.undo()
        try await history.redo()
        history.markClean()
        history.clear()
        var iterator = changes.makeAsyncIterator()
        var kinds: [UndoHistoryChange.Kind] = []
        var last: UndoHistoryChange?
        for _ in 0..<7 {
            let change = await iterator.next()
            if let change { kinds.append(change.kind) }
            last = change
        }
        #expect(
            kinds == [
                .current, .performed("b"), .coalesced("c"), .undone("b"), .redone("b"), .markedClean, .cleared,
            ])
        #expect(
            last?.status
                == UndoHistoryStatus(
                    undoActionName: nil, redoActionName: nil, undoCount: 0, redoCount: 0, isClean: true))
    }

    @Test func operationsWaitForTheOneRunning() async throws {
        let history = UndoHistory()
        let gate = AsyncGate()
        let slow = ClosureCommand("slow") {
            trace("slow starts")
            await gate.wait()
            trace("slow ends")
        } undo: {
            trace("undo slow")
        }
        try await history.perform(Step("a", trace))
        let performing = Task { try await history.perform(slow) }
        await gate.waitForWaiter()
        let undoing = Task { try await history.undo() }
        for _ in 0..<100 { await Task.yield() }  // let the undo reach the history and wait its turn
        gate.open()
        try await performing.value
        try await undoing.value
        #expect(history.redoActionName == "slow")
        #expect(trace.lines == ["do a", "slow starts", "slow ends", "undo slow"])
    }
}
