import Commands
import Testing

/// Groups: scoped (`group`) and open across calls (`beginGroup`/`endGroup`).
@MainActor
struct UndoHistoryGroupTests {
    let trace = Trace()

    @Test func aGroupInsideAGroupIsAStepOfTheOuterOne() async throws {
        let history = UndoHistory()
        try await history.group("outer") { step in
            try await step(Step("a", trace))
            try await history.group("inner") { inner in try await inner(Step("b", trace)) }
            try await step(Step("c", trace))
        }
        #expect(history.undoActionNames == ["outer"])
        try await history.undo()
        #expect(trace.lines == ["do a", "do b", "do c", "undo c", "undo b", "undo a"])
        #expect(!history.canUndo)
        try await history.redo()
        #expect(trace.lines.suffix(3) == ["do a", "do b", "do c"])
    }
}

@MainActor
struct UndoHistoryMenuTests {
    let trace = Trace()

    @Test func anEmptyActionNameGivesThePlainMenuTitle() async throws {
        let history = UndoHistory()
        try await history.perform(Step("", trace))
        #expect(history.status.undoMenuTitle == "Undo")
        try await history.undo()
        #expect(history.status.redoMenuTitle == "Redo")
        #expect(history.status.canRedo)
    }
}

/// Groups open across calls, as `UndoManager.beginUndoGrouping()` and `QUndoStack.beginMacro`.
@MainActor
struct UndoHistoryOpenGroupTests {
    let trace = Trace()

    @Test func whatIsPerformedBetweenBeginAndEndIsOneStep() async throws {
        let history = UndoHistory()
        try await history.perform(Step("before", trace))
        await history.beginGroup("Drag")
        #expect(history.groupingLevel == 1)
        for name in ["move 1", "move 2", "move 3"] { try await history.perform(Step(name, trace)) }
        #expect(history.undoActionNames == ["before"])  // the group enters the history when it ends
        try await history.endGroup()
        #expect(history.groupingLevel == 0)
        #expect(history.undoActionNames == ["before", "Drag"])
        try await history.undo()
        #expect(trace.lines.suffix(3) == ["undo move 3", "undo move 2", "undo move 1"])
        try await history.redo()
        #expect(trace.lines.suffix(3) == ["do move 1", "do move 2", "do move 3"])
    }

    @Test func undoWhileAGroupIsOpenClosesItFirstAsUndoManagerDoes() async throws {
        let history = UndoHistory()
        try await history.perform(Step("before", trace))
        await history.beginGroup("Drag")
        try await history.perform(Step("move", trace))
        try await history.undo()
        #expect(history.groupingLevel == 0)
        #expect(trace.lines.last == "undo move")
        #expect(history.undoActionNames == ["before"])
        #expect(history.redoActionNames == ["Drag"])
        await #expect(throws: UndoHistoryError.noOpenGroup) { try await history.endGroup() }
    }

    @Test func redoWhileAGroupIsOpenClosesItFirst() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace))
        try await history.undo()
        await history.beginGroup("empty")
        try await history.redo()  // the empty group records nothing; the redo goes on
        #expect(history.undoActionNames == ["a"])
        try await history.undo()
        await history.beginGroup("Drag")
        try await history.perform(Step("b", trace))  // clears redo, as a registration does
        #expect(!history.canRedo)
        await #expect(throws: UndoHistoryError.nothingToRedo) { try await history.redo() }
        #expect(history.undoActionNames == ["Drag"])
        #expect(history.groupingLevel == 0)
    }

    @Test func nestedGroupsAreStepsOfTheOuterOneAndRefuseUndo() async throws {
        let history = UndoHistory()
        await history.beginGroup("outer")
        try await history.perform(Step("a", trace))
        await history.beginGroup("inner")
        try await history.perform(Step("b", trace))
        await #expect(throws: UndoHistoryError.groupOpen(operation: "undo", groups: ["outer", "inner"])) {
            try await history.undo()
        }
        #expect(
            UndoHistoryError.groupOpen(operation: "undo", groups: ["outer", "inner"]).description
                == "cannot undo while groups are open: 'outer' > 'inner'; end them first")
        try await history.endGroup()
        try await history.perform(Step("c", trace))
        try await history.endGroup()
        #expect(history.undoActionNames == ["outer"])
        try await history.undo()
        #expect(trace.lines.suffix(3) == ["undo c", "undo b", "undo a"])
    }

    @Test func endGroupWithoutBeginIsAClearError() async throws {
        let history = UndoHistory()
        await #expect(throws: UndoHistoryError.noOpenGroup) { try await history.endGroup() }
        #expect(
            UndoHistoryError.noOpenGroup.description
                == "no group to end: beginGroup was not called, or its group has ended")
    }

    @Test func anEmptyGroupRecordsNothing() async throws {
        let history = UndoHistory()
        await history.beginGroup("nothing")
        try await history.endGroup()
        #expect(!history.canUndo)
        #expect(history.isClean)
    }

    @Test func commandsCoalesceInsideAGroup() async throws {
        let history = UndoHistory()
        let counter = Counter()
        await history.beginGroup("Type")
        for amount in 1...3 { try await history.perform(Add(counter: counter, amount: amount, coalescingKey: "k")) }
        try await history.endGroup()
        try await history.undo()
        #expect(counter.value == 0)
        try await history.redo()
        #expect(counter.value == 6)
    }

    @Test func theSavePointInsideAGroupIsTheGroupsEnd() async throws {
        let history = UndoHistory()
        await history.beginGroup("Drag")
        #expect(history.isClean)
        try await history.perform(Step("move 1", trace))
        #expect(!history.isClean)
        history.markClean()  // saved mid-drag, and nothing moves after
        #expect(history.isClean)
        try await history.endGroup()
        #expect(history.isClean)
        try await history.undo()
        #expect(!history.isClean)
        try await history.redo()
        #expect(history.isClean)
    }

    @Test func aSavePointInsideAGroupThatChangesAfterItCannotBeReached() async throws {
        let history = UndoHistory()
        await history.beginGroup("Drag")
        try await history.perform(Step("move 1", trace))
        history.markClean()
        try await history.perform(Step("move 2", trace))
        #expect(!history.isClean)
        try await history.endGroup()
        #expect(!history.isClean)
        try await history.undo()
        #expect(!history.isClean)
    }

    @Test func performsInsideAScopedGroupBodyAreStepsOfIt() async throws {
        let history = UndoHistory()
        try await history.group("g") { step in
            try await step(Step("a", trace))
            try await history.perform(Step("b", trace))
            await history.beginGroup("left open")
            try await history.perform(Step("c", trace))
        }
        #expect(history.undoActionNames == ["g"])
        #expect(history.groupingLevel == 0)
        try await history.undo()
        #expect(trace.lines.suffix(3) == ["undo c", "undo b", "undo a"])
    }

    @Test func aFailedScopedGroupUndoesWhatWasPerformedInIt() async throws {
        let history = UndoHistory()
        await #expect(throws: TransactionError.self) {
            try await history.group("g") { step in
                try await history.perform(Step("a", trace))
                try await history.group("inner") { inner in try await inner(Step("b", trace)) }
                try await step(Step("c", trace, failsExecute: true))
            }
        }
        #expect(trace.lines == ["do a", "do b", "undo b", "undo a"])
        #expect(!history.canUndo)
        #expect(history.groupingLevel == 0)
        #expect(history.isClean)
    }

    @Test func undoInsideAScopedGroupBodyIsRefused() async throws {
        let history = UndoHistory()
        try await history.perform(Step("a", trace))
        try await history.group("g") { step in
            try await step(Step("b", trace))
            await #expect(throws: UndoHistoryError.groupOpen(operation: "undo", groups: ["g"])) {
                try await history.undo()
            }
        }
        #expect(history.undoActionNames == ["a", "g"])
    }
}
