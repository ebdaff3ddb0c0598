extension UndoHistory {
    /// Renames the action the next undo undoes, or the innermost open group, as
    /// `UndoManager.setActionName(_:)` names the current group.
    ///
    /// ```swift
    /// try await history.perform(MoveShapes(selection))
    /// try history.setActionName("Align Left")   // "Undo Align Left"
    /// ```
    ///
    /// - Throws: ``UndoHistoryError/nothingToUndo`` when there is no step and no open group.
    public func setActionName(_ name: String) throws(UndoHistoryError) {
        if let group = openGroups.last {
            group.scope.name = name
        } else {
            guard !done.isEmpty else { throw .nothingToUndo }
            let renamed = NamedCommand.naming(done[done.count - 1].command, name)
            done[done.count - 1].command = renamed
        }
        if !streams.isEmpty { tell(.renamed(name)) }
    }

    /// Renames the step at `index` (the indices of ``actionNames``: the undo stack oldest
    /// first, then the redo stack), as `QUndoCommand.setText(_:)`.
    ///
    /// - Throws: ``UndoHistoryError/noEntry(index:count:)`` when there is no such step.
    public func setActionName(_ name: String, at index: Int) throws(UndoHistoryError) {
        if done.indices.contains(index) {
            let renamed = NamedCommand.naming(done[index].command, name)
            done[index].command = renamed
        } else if index >= done.count, index - done.count < undone.count {
            let position = undone.count - 1 - (index - done.count)
            let renamed = NamedCommand.naming(undone[position].command, name)
            undone[position].command = renamed
        } else {
            throw .noEntry(index: index, count: count)
        }
        if !streams.isEmpty { tell(.renamed(name)) }
    }
}
