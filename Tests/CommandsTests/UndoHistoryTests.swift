import Commands
import Testing

struct UndoHistoryTests {
    let trace = Trace()

    @Test func performUndoRedo() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace))
        try await history.perform(Step("b", trace))
        #expect(try await history.undo().name == "b")
        #expect(try await history.redo().name == "b")
        #expect(try await history.undo().name == "b")
        #expect(try await history.undo().name == "a")
        #expect(trace.lines == ["do a", "do b", "undo b", "do b", "undo b", "undo a"])
        #expect(await history.redoActionNames == ["a", "b"])
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
        #expect(await history.canRedo)
        try await history.perform(Step("b", trace))
        #expect(await !history.canRedo)
        #expect(await history.undoActionNames == ["b"])
    }

    @Test func aFailedCommandIsNotRecorded() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace))
        await #expect(throws: TestFailure("b failed")) {
            try await history.perform(Step("b", trace, failsExecute: true))
        }
        #expect(await history.undoActionNames == ["a"])
    }

    @Test func aFailedUndoLeavesTheStepInPlace() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace, failsUndo: true))
        await #expect {
            try await history.undo()
        } throws: { ($0 as? UndoHistoryError)?.description == "could not undo 'a': undo a failed" }
        #expect(await history.undoActionName == "a")
        #expect(await !history.canRedo)
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
        #expect(await history.redoActionName == "flaky")
        #expect(await !history.canUndo)
    }

    @Test func undoAtAnIndexUndoesOnlyThatStep() async throws {
        let history = UndoHistory()
        for name in ["a", "b", "c"] { try await history.perform(Step(name, trace)) }
        #expect(try await history.undo(at: 1).name == "b")
        #expect(await history.undoActionNames == ["a", "c"])
        #expect(await history.redoActionName == "b")
        await #expect {
            try await history.undo(at: 5)
        } throws: {
            ($0 as? UndoHistoryError)?.description == "no entry at index 5: the history has entries 0...1"
        }
        #expect(try await history.undo(at: 1).name == "c")
        try await history.redo()
        #expect(await history.undoActionNames == ["a", "c"])
        #expect(trace.lines == ["do a", "do b", "do c", "undo b", "undo c", "do c"])
    }

    @Test func undoAllUndoesNewestFirst() async throws {
        let history = UndoHistory()
        for name in ["a", "b", "c"] { try await history.perform(Step(name, trace)) }
        #expect(try await history.undoAll() == 3)
        #expect(trace.lines.suffix(3) == ["undo c", "undo b", "undo a"])
        #expect(await history.redoActionNames == ["a", "b", "c"])
    }

    @Test func undoAllStopsAtAFailure() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace))
        try await history.perform(Step("b", trace, failsUndo: true))
        try await history.perform(Step("c", trace))
        await #expect(throws: UndoHistoryError.self) { try await history.undoAll() }
        #expect(await history.undoActionNames == ["a", "b"])
        #expect(await history.redoActionNames == ["c"])
    }

    @Test func aGroupIsOneStep() async throws {
        let history = UndoHistory()
        try await history.group("Move shapes") { step in
            try await step(Step("a", trace))
            try await step.transaction("inner") { inner in try await inner(Step("b", trace)) }
            try await step(Step("c", trace))
        }
        #expect(await history.undoActionNames == ["Move shapes"])
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
        #expect(await !history.canUndo)
    }

    @Test func anEmptyGroupRecordsNothing() async throws {
        let history = UndoHistory()
        let value = try await history.group("nothing") { _ in 7 }
        #expect(value == 7)
        #expect(await !history.canUndo)
    }

    @Test func commandsSharingAKeyCoalesceIntoOneStep() async throws {
        let history = UndoHistory()
        try await history.perform(Step("drag 1", trace, key: "drag"))
        try await history.perform(Step("drag 2", trace, key: "drag"))
        try await history.perform(Step("drag 3", trace, key: "drag"))
        try await history.perform(Step("click", trace))
        try await history.perform(Step("drag 4", trace, key: "drag"))
        #expect(await history.undoActionNames == ["drag 1", "click", "drag 4"])
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
        #expect(await history.undoActionNames == ["Add 10"])
        try await history.undo()
        #expect(counter.value == 0)
        try await history.redo()
        #expect(counter.value == 10)
    }

    @Test func coalescingStopsAtTheSavePoint() async throws {
        let history = UndoHistory()
        try await history.perform(Step("drag 1", trace, key: "drag"))
        await history.markClean()
        try await history.perform(Step("drag 2", trace, key: "drag"))
        #expect(await history.undoActionNames == ["drag 1", "drag 2"])
        try await history.undo()
        #expect(await history.isClean)
    }

    @Test func theCountLimitForgetsTheOldestSteps() async throws {
        let history = UndoHistory(limit: 2)
        for name in ["a", "b", "c"] { try await history.perform(Step(name, trace)) }
        #expect(await history.undoActionNames == ["b", "c"])
        #expect(try await history.undoAll() == 2)
        #expect(trace.lines.suffix(2) == ["undo c", "undo b"])
    }

    @Test func aZeroLimitKeepsNothing() async throws {
        let history = UndoHistory(limit: 0)
        try await history.perform(Step("a", trace))
        #expect(await !history.canUndo)
        #expect(trace.lines == ["do a"])
    }

    @Test func theCostLimitForgetsTheOldestStepsButKeepsTheNewest() async throws {
        let history = UndoHistory(costLimit: 10)
        try await history.perform(Step("a", trace), cost: 4)
        try await history.perform(Step("b", trace), cost: 4)
        #expect(await history.cost == 8)
        try await history.perform(Step("c", trace), cost: 4)
        #expect(await history.undoActionNames == ["b", "c"])
        #expect(await history.cost == 8)
        try await history.perform(Step("huge", trace), cost: 50)
        #expect(await history.undoActionNames == ["huge"])
        try await history.undo()
        #expect(await history.cost == 0)
    }

    @Test func theSavePointTracksUndoAndRedo() async throws {
        let history = UndoHistory()
        #expect(await history.isClean)
        try await history.perform(Step("a", trace))
        #expect(await !history.isClean)
        await history.markClean()
        #expect(await history.isClean)
        try await history.perform(Step("b", trace))
        #expect(await !history.isClean)
        try await history.undo()
        #expect(await history.isClean)
        try await history.undo()
        #expect(await !history.isClean)
        try await history.redo()
        #expect(await history.isClean)
    }

    @Test func theSavePointBecomesUnreachable() async throws {
        let history = UndoHistory(limit: 2)
        try await history.perform(Step("a", trace))
        await history.markClean()
        try await history.undo()
        try await history.perform(Step("b", trace))  // the saved state was on the redo stack
        try await history.undo()
        #expect(await !history.isClean)

        let limited = UndoHistory(limit: 1)
        await limited.markClean()
        try await limited.perform(Step("c", trace))
        try await limited.perform(Step("d", trace))  // forgets "c": the clean state cannot come back
        try await limited.undo()
        #expect(await !limited.isClean)

        let skipped = UndoHistory()
        try await skipped.perform(Step("e", trace))
        try await skipped.perform(Step("f", trace))
        await skipped.markClean()
        try await skipped.undo(at: 0)
        #expect(await !skipped.isClean)
        try await skipped.redo()
        #expect(await !skipped.isClean)
    }

    @Test func actionNamesForMenus() async throws {
        let history = UndoHistory()
        let cart = TestCart()
        var status = await history.status
        #expect(status.undoMenuTitle == "Undo" && status.redoMenuTitle == "Redo")
        #expect(!status.canUndo && !status.canRedo)
        try await history.perform(AddGoods(cart: cart, item: "apples", count: 2))
        try await history.perform(ReduceGoods(cart: cart, item: "apples", count: 1))
        try await history.undo()
        status = await history.status
        #expect(status.undoMenuTitle == "Undo Add 2 apples")
        #expect(status.redoMenuTitle == "Redo Reduce 1 apples")
        #expect(status.undoCount == 1 && status.redoCount == 1)
    }

    @Test func aCommandThatCannotBeUndoneClearsTheHistory() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace))
        try await history.perform(Step("publish", trace, canUndo: false))
        #expect(await !history.canUndo)
        #expect(await !history.isClean)
        try await history.perform(Step("b", trace))
        #expect(await history.undoActionNames == ["b"])
    }

    @Test func clearForgetsEverything() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace))
        try await history.perform(Step("b", trace))
        try await history.undo()
        await history.clear()
        #expect(await !history.canUndo)
        #expect(await !history.canRedo)
        #expect(await !history.isClean)
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
        let changes = await history.changes()
        try await history.perform(Step("b", trace, key: "k"))
        try await history.perform(Step("c", trace, key: "k"))
        try await history.undo()
        try await history.redo()
        await history.markClean()
        await history.clear()
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
        #expect(try await undoing.value.name == "slow")
        #expect(trace.lines == ["do a", "slow starts", "slow ends", "undo slow"])
    }
}
