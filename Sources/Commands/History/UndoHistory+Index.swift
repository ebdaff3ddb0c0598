extension UndoHistory {
    /// The position in the history: how many steps are done (0 when everything is undone), as
    /// `QUndoStack.index()`. Steps `0..<index` can be undone; steps `index..<count` redone.
    public var index: Int { done.count }

    /// How many steps the history holds, done and undone (`QUndoStack.count()`).
    public var count: Int { done.count + undone.count }

    /// The name of every step, by index: the undo stack oldest first, then the redo stack, the
    /// next redo first (`QUndoStack.text(_:)`).
    public var actionNames: [String] { undoActionNames + redoActionNames }

    /// Undoes or redoes steps until ``index`` is `target`, as `QUndoStack.setIndex(_:)` does:
    /// the history jumps to any point of its record.
    ///
    /// ```swift
    /// history.actionNames      // ["Add apple", "Add pear", "Add plum"], index 3
    /// try await history.setIndex(1)  // undoes "Add plum", then "Add pear"
    /// try await history.setIndex(3)  // redoes them
    /// ```
    ///
    /// A step that is ``Command/isObsolete`` after its undo or redo is dropped on the way (the
    /// target moves with it). A single group opened by ``beginGroup(_:cost:)`` is closed first.
    ///
    /// - Throws: ``UndoHistoryError/indexOutOfRange(index:count:)`` unless `target` is in
    ///   `0...count` (nothing changes), or the undo or redo error of the first step that fails
    ///   (the history stays where it got to).
    public func setIndex(_ target: Int) async throws(UndoHistoryError) {
        if !takeTurn() { await waitForTurn() }
        try closeGroup(before: "set the index")
        guard target >= 0, target <= count else {
            let count = self.count
            endTurn()
            throw .indexOutOfRange(index: target, count: count)
        }
        var target = target
        while done.count > target, let entry = done.popLast() {
            try await perform(entry, undoing: true)
            moveToRedo(entry)
        }
        while done.count < target, let entry = undone.popLast() {
            try await perform(entry, undoing: false)
            if !moveToDone(entry) { target -= 1 }
        }
        endTurn()
    }
}
