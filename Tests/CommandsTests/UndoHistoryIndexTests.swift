import Commands
import Testing

/// A move of a point along a line: moves that return to the start are obsolete.
struct Move: Command {
    let position: Counter
    let from: Int
    let to: Int
    var name: String { "Move to \(to)" }
    var coalescingKey: String? { "move" }
    var isObsolete: Bool { from == to }

    func execute() async throws { position.add(to - from) }
    func undo() async throws { position.add(from - to) }

    func coalesced(with next: any Command) -> (any Command)? {
        guard let next = next as? Move else { return nil }
        return Move(position: position, from: from, to: next.to)
    }
}

/// Jumping to an index, obsolete steps, names and limits changed after creation.
@MainActor
struct UndoHistoryIndexTests {
    let trace = Trace()

    func history(_ names: [String]) async throws -> UndoHistory {
        let history = UndoHistory()
        for name in names { try await history.perform(Step(name, trace)) }
        return history
    }

    @Test func setIndexUndoesAndRedoesToThatIndex() async throws {
        let history = try await history(["a", "b", "c", "d"])
        #expect(history.index == 4 && history.count == 4)
        try await history.setIndex(1)
        #expect(trace.lines.suffix(3) == ["undo d", "undo c", "undo b"])
        #expect(history.index == 1)
        #expect(history.actionNames == ["a", "b", "c", "d"])
        try await history.setIndex(3)
        #expect(trace.lines.suffix(2) == ["do b", "do c"])
        #expect(history.undoActionNames == ["a", "b", "c"] && history.redoActionNames == ["d"])
        try await history.setIndex(3)  // already there: nothing runs
        #expect(trace.lines.count == 9)
        try await history.setIndex(0)
        #expect(!history.canUndo && history.count == 4)
    }

    @Test func setIndexOutsideTheHistoryIsRefused() async throws {
        let history = try await history(["a", "b"])
        await #expect(throws: UndoHistoryError.indexOutOfRange(index: 3, count: 2)) { try await history.setIndex(3) }
        await #expect(throws: UndoHistoryError.indexOutOfRange(index: -1, count: 2)) { try await history.setIndex(-1) }
        #expect(
            UndoHistoryError.indexOutOfRange(index: 3, count: 2).description
                == "no index 3: the history's indices are 0...2")
        #expect(history.index == 2)
    }

    @Test func setIndexStopsAtAFailedUndo() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace))
        try await history.perform(Step("b", trace, failsUndo: true))
        try await history.perform(Step("c", trace))
        await #expect(throws: UndoHistoryError.undoFailed(action: "b", error: TestFailure("undo b failed"))) {
            try await history.setIndex(0)
        }
        #expect(history.index == 2)
        #expect(history.redoActionNames == ["c"])
    }

    @Test func setIndexKeepsTheSavePoint() async throws {
        let history = try await history(["a", "b", "c"])
        try await history.setIndex(1)
        history.markClean()
        try await history.setIndex(3)
        #expect(!history.isClean)
        try await history.setIndex(1)
        #expect(history.isClean)
    }

    @Test func aCoalescedCommandThatCancelsOutIsDropped() async throws {
        let history = UndoHistory()
        let position = Counter()
        try await history.perform(Step("before", trace))
        try await history.perform(Move(position: position, from: 0, to: 5))
        try await history.perform(Move(position: position, from: 5, to: 9))
        #expect(history.undoActionNames == ["before", "Move to 9"])
        try await history.perform(Move(position: position, from: 9, to: 0))  // back to the start
        #expect(position.value == 0)
        #expect(history.undoActionNames == ["before"])
        try await history.undo()
        #expect(trace.lines.last == "undo before")
        #expect(position.value == 0)
    }

    @Test func aDroppedStepBringsBackTheSavePoint() async throws {
        let history = UndoHistory()
        let position = Counter()
        history.markClean()
        try await history.perform(Move(position: position, from: 0, to: 5))
        #expect(!history.isClean)
        try await history.perform(Move(position: position, from: 5, to: 0))
        #expect(history.isClean)
        #expect(!history.canUndo)
    }

    @Test func anObsoleteCommandIsNotRecorded() async throws {
        let history = UndoHistory()
        let position = Counter()
        try await history.perform(Step("a", trace))
        try await history.undo()
        try await history.perform(Move(position: position, from: 3, to: 3))
        #expect(!history.canUndo)
        #expect(!history.canRedo)  // redo is cleared all the same, as QUndoStack does
    }

    @Test func aStepObsoleteAfterItsUndoIsDropped() async throws {
        let history = UndoHistory()
        let gone = Counter()  // 1 once the target is gone
        let edit = ObsoleteOnceGone(gone: gone, trace: trace)
        try await history.perform(Step("a", trace))
        try await history.perform(edit)
        gone.add(1)
        try await history.undo()
        #expect(!history.canRedo)
        #expect(history.undoActionNames == ["a"])
    }

    @Test func obsoleteStepsInsideAGroupAreDropped() async throws {
        let history = UndoHistory()
        let position = Counter()
        await history.beginGroup("Drag")
        try await history.perform(Move(position: position, from: 0, to: 4))
        try await history.perform(Move(position: position, from: 4, to: 0))
        try await history.endGroup()
        #expect(!history.canUndo)
    }

    @Test func theLimitCanChangeAfterCreation() async throws {
        let history = try await history(["a", "b", "c", "d"])
        history.limit = 2
        #expect(history.undoActionNames == ["c", "d"])
        history.limit = -1
        #expect(history.limit == 0)
        #expect(!history.canUndo)
        history.limit = nil
        for name in ["e", "f", "g"] { try await history.perform(Step(name, trace)) }
        #expect(history.count == 3)
    }

    @Test func loweringTheLimitWhileAnUndoAtAnIndexFailsDoesNotLoseTheStep() async throws {
        let history = try await history(["a", "b"])
        let gate = AsyncGate()
        try await history.perform(
            ClosureCommand("c") {
            } undo: {
                await gate.wait()
                throw TestFailure("offline")
            })
        let undoing = Task { try await history.undo(at: 2) }
        await gate.waitForWaiter()
        history.limit = 1  // forgets "a" while "c" is out of the stack
        gate.open()
        await #expect(throws: UndoHistoryError.undoFailed(action: "c", error: TestFailure("offline"))) {
            try await undoing.value
        }
        #expect(history.undoActionNames == ["b", "c"])
    }

    @Test func renamingIsStreamed() async throws {
        let history = try await history(["a"])
        let changes = history.changes()
        try history.setActionName("b")
        var iterator = changes.makeAsyncIterator()
        _ = await iterator.next()
        #expect(await iterator.next()?.kind == .renamed("b"))
    }

    @Test func theCostLimitCanChangeAfterCreation() async throws {
        let history = UndoHistory()
        for name in ["a", "b", "c"] { try await history.perform(Step(name, trace), cost: 10) }
        history.costLimit = 15
        #expect(history.undoActionNames == ["c"])
        #expect(history.cost == 10)
    }

    @Test func costsNeverOverflow() async throws {
        let history = UndoHistory(costLimit: .max)
        try await history.perform(Step("a", trace), cost: .max)
        try await history.perform(Step("b", trace), cost: .max)
        try await history.perform(Step("c", trace), cost: -5)
        #expect(history.cost == .max)
        try await history.undo()
        try await history.undo()
        try await history.undo()
        #expect(!history.canUndo)
        try await history.perform(Step("d", trace), cost: 1)
        #expect(history.cost >= 0)

        let limited = UndoHistory(limit: 1, costLimit: 10)
        try await limited.perform(Step("x", trace), cost: .max)
        try await limited.perform(Step("y", trace), cost: .max)
        #expect(limited.undoActionNames == ["y"])
        try await limited.undo()
        #expect(limited.cost == 0)
        history.limit = 0
        #expect(history.cost == 0)
    }

    @Test func actionNamesCanChangeAfterTheFact() async throws {
        let history = try await history(["a", "b", "c"])
        try history.setActionName("Align Left")
        #expect(history.status.undoMenuTitle == "Undo Align Left")
        try await history.undo()
        #expect(history.status.redoMenuTitle == "Redo Align Left")
        try history.setActionName("First", at: 0)
        try history.setActionName("Third again", at: 2)
        #expect(history.actionNames == ["First", "b", "Third again"])
        #expect(throws: UndoHistoryError.noEntry(index: 3, count: 3)) { try history.setActionName("x", at: 3) }
        try await history.redo()
        #expect(history.undoActionName == "Third again")
        #expect(trace.lines.last == "do c")
        #expect(throws: UndoHistoryError.nothingToUndo) { try UndoHistory().setActionName("x") }
    }

    @Test func aRenamedStepStillCoalesces() async throws {
        let history = UndoHistory()
        let position = Counter()
        try await history.perform(Move(position: position, from: 0, to: 5))
        try history.setActionName("Drag")
        try await history.perform(Move(position: position, from: 5, to: 7))
        #expect(history.undoActionNames == ["Drag"])
        try await history.undo()
        #expect(position.value == 0)
    }

    @Test func anOpenGroupCanBeRenamed() async throws {
        let history = UndoHistory()
        await history.beginGroup("Drag")
        try await history.perform(Step("a", trace))
        try history.setActionName("Move 3 shapes")
        try await history.endGroup()
        #expect(history.undoActionName == "Move 3 shapes")
    }

    @Test func errorsCompareEqualWhenTheySayTheSame() {
        #expect(UndoHistoryError.nothingToUndo == .nothingToUndo)
        #expect(UndoHistoryError.nothingToUndo != .nothingToRedo)
        #expect(
            UndoHistoryError.undoFailed(action: "a", error: TestFailure("x"))
                == .undoFailed(action: "a", error: TestFailure("x")))
        #expect(
            UndoHistoryError.undoFailed(action: "a", error: TestFailure("x"))
                != .undoFailed(action: "a", error: TestFailure("y")))
        #expect(
            UndoHistoryError.redoFailed(action: "a", error: CancellationError())
                == .redoFailed(action: "a", error: CancellationError()))
        #expect(UndoHistoryError.noEntry(index: 1, count: 2) != .indexOutOfRange(index: 1, count: 2))
    }
}

/// An edit whose target can disappear: obsolete from then on.
struct ObsoleteOnceGone: Command {
    let gone: Counter
    let trace: Trace
    var name: String { "edit" }
    var isObsolete: Bool { gone.value > 0 }
    func execute() async throws { trace("do edit") }
    func undo() async throws { trace("undo edit") }
}
