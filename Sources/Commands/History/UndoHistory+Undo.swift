extension UndoHistory {
    /// Undoes the last step and moves it to the redo stack (or drops it, if it is now
    /// ``Command/isObsolete``).
    ///
    /// The step's name is then ``redoActionName``. A single group opened by
    /// ``beginGroup(_:cost:)`` is closed first, then undone (as `UndoManager.undo()` does).
    ///
    /// - Throws: ``UndoHistoryError/nothingToUndo``, ``UndoHistoryError/undoFailed(action:error:)``
    ///   when the command's `undo()` threw (the step then stays where it was), or
    ///   ``UndoHistoryError/groupOpen(operation:groups:)`` with nested groups open.
    public func undo() async throws(UndoHistoryError) {
        try await performTop(undoing: true)
    }

    /// Redoes the step undone last (and drops it, if it is now ``Command/isObsolete``).
    ///
    /// The step's name is then ``undoActionName``. A single group opened by
    /// ``beginGroup(_:cost:)`` is closed first (if it performed anything, it cleared redo).
    ///
    /// - Throws: ``UndoHistoryError/nothingToRedo``, or ``UndoHistoryError/redoFailed(action:error:)``
    ///   when the command's `execute()` threw (the step then stays on the redo stack).
    public func redo() async throws(UndoHistoryError) {
        try await performTop(undoing: false)
    }

    /// Undoes only the step at `index` (0 is the oldest), leaving the later steps done, as the
    /// invoker of the Command pattern's undo examples does; the step goes to the top of the redo stack.
    ///
    /// Undoing a step below the save point makes the saved state unreachable (``isClean`` stays
    /// `false` until ``markClean()``).
    ///
    /// - Throws: ``UndoHistoryError/noEntry(index:count:)`` or ``UndoHistoryError/undoFailed(action:error:)``.
    public func undo(at index: Int) async throws(UndoHistoryError) {
        if !takeTurn() { await waitForTurn() }
        try closeGroup(before: "undo")
        guard done.indices.contains(index) else {
            let count = done.count
            endTurn()
            throw .noEntry(index: index, count: count)
        }
        let entry = done.remove(at: index)
        do {
            try await entry.command.undo()
        } catch {
            done.insert(entry, at: Swift.min(index, done.count))  // a lowered limit may have trimmed it
            endTurn()
            throw .undoFailed(action: entry.command.name, error: error)
        }
        if index < done.count, let clean = cleanIndex, index < clean { cleanIndex = nil }
        didUndo(entry)
    }

    /// Undoes every step, newest first.
    ///
    /// - Returns: how many steps were undone.
    /// - Throws: ``UndoHistoryError/undoFailed(action:error:)`` from the first step that fails
    ///   (the steps after it stay undone, the rest stay done).
    @discardableResult
    public func undoAll() async throws(UndoHistoryError) -> Int {
        if !takeTurn() { await waitForTurn() }
        try closeGroup(before: "undo")
        var count = 0
        while let entry = done.popLast() {
            try await perform(entry, undoing: true)
            moveToRedo(entry)
            count += 1
        }
        endTurn()
        return count
    }

    /// ``undo()`` (`undoing`) or ``redo()``: the step on top of the done stack undone, or the
    /// one on top of the redo stack done again.
    func performTop(undoing: Bool) async throws(UndoHistoryError) {
        if !takeTurn() { await waitForTurn() }
        try closeGroup(before: undoing ? "undo" : "redo")
        guard let entry = undoing ? done.popLast() : undone.popLast() else {
            endTurn()
            throw undoing ? .nothingToUndo : .nothingToRedo
        }
        try await perform(entry, undoing: undoing)
        if undoing { didUndo(entry) } else { didRedo(entry) }
    }

    /// Undoes `entry`'s command (or, when not `undoing`, executes it again); one that throws is
    /// put back and ends the turn (``failed(_:undoing:error:)``).
    func perform(_ entry: Entry, undoing: Bool) async throws(UndoHistoryError) {
        do {
            if undoing { try await entry.command.undo() } else { try await entry.command.execute() }
        } catch {
            throw failed(entry, undoing: undoing, error: error)
        }
    }
}
