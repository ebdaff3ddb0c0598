extension UndoHistory {
    /// What an undo menu needs, read at one instant.
    public var status: UndoHistoryStatus {
        UndoHistoryStatus(
            undoActionName: undoActionName, redoActionName: redoActionName, undoCount: done.count,
            redoCount: undone.count, isClean: isClean)
    }

    /// Whether there is something to undo.
    public var canUndo: Bool { !done.isEmpty }

    /// Whether there is something to redo.
    public var canRedo: Bool { !undone.isEmpty }

    /// The name of the action the next undo undoes ("Add 2 apples"), or `nil`.
    public var undoActionName: String? { done.last?.command.name }

    /// The name of the action the next redo redoes, or `nil`.
    public var redoActionName: String? { undone.last?.command.name }

    /// The names of the steps that can be undone, oldest first (the indices of ``undo(at:)``).
    public var undoActionNames: [String] { done.map(\.command.name) }

    /// The names of the steps that can be redone, the next redo first.
    public var redoActionNames: [String] { undone.reversed().map(\.command.name) }

    /// The total cost of the steps that can be undone.
    public var cost: Int { totalCost }

    /// Whether the history is at its save point (a new history is). Inside an open group, it
    /// is while the group has not changed since it opened (or since ``markClean()``).
    public var isClean: Bool {
        if openGroups.isEmpty { return cleanIndex == done.count }
        if let cleanMark { return cleanMark == groupEdits }
        return cleanIndex == done.count && groupEdits == groupEditsAtOpen
    }

    /// Makes the current state the save point (call it after saving the document).
    ///
    /// Inside an open group, the save point is the state the group will record when it closes,
    /// if nothing is performed in it after this call; otherwise the saved state cannot be
    /// reached again.
    public func markClean() {
        if openGroups.isEmpty {
            cleanIndex = done.count
        } else {
            cleanMark = groupEdits
        }
        if !streams.isEmpty { tell(.markedClean) }
    }

    /// Forgets every step, undo and redo; the save point becomes unreachable unless the history
    /// was clean.
    public func clear() {
        let wasClean = isClean
        forgetAll()
        if wasClean { cleanIndex = 0 }
        if !streams.isEmpty { tell(.cleared) }
    }
}
