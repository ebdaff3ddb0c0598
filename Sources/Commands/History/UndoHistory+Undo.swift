extension UndoHistory {
    /// Undoes the last step and moves it to the redo stack.
    ///
    /// - Returns: the command undone (its `name` is the action's).
    /// - Throws: ``UndoHistoryError/nothingToUndo``, or ``UndoHistoryError/undoFailed(action:error:)``
    ///   when the command's `undo()` threw (the step then stays where it was).
    @discardableResult
    public func undo() async throws(UndoHistoryError) -> any Command {
        if busy { await waitForTurn() }
        busy = true
        defer { passTurn() }
        return try await undoLast()
    }

    /// Redoes the step undone last.
    ///
    /// - Returns: the command redone.
    /// - Throws: ``UndoHistoryError/nothingToRedo``, or ``UndoHistoryError/redoFailed(action:error:)``
    ///   when the command's `execute()` threw (the step then stays on the redo stack).
    @discardableResult
    public func redo() async throws(UndoHistoryError) -> any Command {
        if busy { await waitForTurn() }
        busy = true
        defer { passTurn() }
        guard let entry = undone.popLast() else { throw .nothingToRedo }
        do {
            try await entry.command.execute()
        } catch {
            undone.append(entry)
            throw .redoFailed(action: entry.command.name, error: error)
        }
        done.append(entry)
        totalCost += entry.cost
        notify { .redone(entry.command.name) }
        return entry.command
    }

    /// Undoes only the step at `index` (0 is the oldest), leaving the later steps done, as the
    /// article's invoker does; the step goes to the top of the redo stack.
    ///
    /// Undoing a step below the save point makes the saved state unreachable (``isClean`` stays
    /// `false` until ``markClean()``).
    ///
    /// - Returns: the command undone.
    /// - Throws: ``UndoHistoryError/noEntry(index:count:)`` or ``UndoHistoryError/undoFailed(action:error:)``.
    @discardableResult
    public func undo(at index: Int) async throws(UndoHistoryError) -> any Command {
        if busy { await waitForTurn() }
        busy = true
        defer { passTurn() }
        guard done.indices.contains(index) else { throw .noEntry(index: index, count: done.count) }
        if index == done.count - 1 { return try await undoLast() }
        let entry = done[index]
        do {
            try await entry.command.undo()
        } catch {
            throw .undoFailed(action: entry.command.name, error: error)
        }
        done.remove(at: index)
        totalCost -= entry.cost
        if let clean = cleanIndex, index < clean { cleanIndex = nil }
        undone.append(entry)
        notify { .undone(entry.command.name) }
        return entry.command
    }

    /// Undoes every step, newest first.
    ///
    /// - Returns: how many steps were undone.
    /// - Throws: ``UndoHistoryError/undoFailed(action:error:)`` from the first step that fails
    ///   (the steps after it stay undone, the rest stay done).
    @discardableResult
    public func undoAll() async throws(UndoHistoryError) -> Int {
        if busy { await waitForTurn() }
        busy = true
        defer { passTurn() }
        var count = 0
        while !done.isEmpty {
            try await undoLast()
            count += 1
        }
        return count
    }

    @discardableResult
    func undoLast() async throws(UndoHistoryError) -> any Command {
        guard let entry = done.popLast() else { throw .nothingToUndo }
        do {
            try await entry.command.undo()
        } catch {
            done.append(entry)
            throw .undoFailed(action: entry.command.name, error: error)
        }
        totalCost -= entry.cost
        undone.append(entry)
        notify { .undone(entry.command.name) }
        return entry.command
    }
}
