extension UndoHistory {
    /// Runs `body` as a transaction and records the commands it performed as one step named
    /// `name`. If the body fails, the commands it performed are undone in reverse and nothing
    /// is recorded.
    ///
    /// ```swift
    /// try await history.group("Move 3 shapes") { step in
    ///     for shape in selection { try await step(Move(shape, by: offset)) }
    /// }
    /// history.undoActionName  // "Move 3 shapes": one undo moves all three back
    /// ```
    ///
    /// While the body runs the group is open: the steps it takes through its scope, the
    /// commands performed on the history (``perform(_:cost:)``, from any task) and the groups
    /// nested in it (``group(_:cost:_:)`` or ``beginGroup(_:cost:)``) are steps of it, in the
    /// order they finish, and are undone with it. The group enters the history when the body
    /// returns; a group that performed nothing records nothing. Undo and redo are refused while
    /// the body runs (``UndoHistoryError/groupOpen(operation:groups:)``).
    ///
    /// - Throws: ``TransactionError`` naming the step that failed.
    public func group<Result>(
        _ name: String, cost: Int = 0, _ body: (TransactionScope) async throws -> Result
    ) async throws(TransactionError) -> Result {
        let scope = TransactionScope(name: name, observer: nil)
        scope.onFinished = { [weak self] in self?.groupEdits &+= 1 }
        if !takeTurn() { await waitForTurn() }
        open(scope, cost: cost, isScoped: true)
        endTurn()
        do {
            let result = try await scope.run { scope in
                do {
                    let result = try await body(scope)
                    await closeGroups(above: scope)
                    return result
                } catch {
                    await closeGroups(above: scope)
                    throw error
                }
            }
            await closeGroup(scope, keeping: true)
            return result
        } catch {
            await closeGroup(scope, keeping: false)
            throw error
        }
    }

    /// Closes the groups the body opened and left open into `scope`, so that they are part of
    /// it (and undone with it if it fails).
    private func closeGroups(above scope: TransactionScope) async {
        if !takeTurn() { await waitForTurn() }
        while let top = openGroups.last, top.scope !== scope {
            close(openGroups.removeLast())
        }
        endTurn()
    }

    /// Takes `scope`'s group off the stack: recorded when `keeping`, else (rolled back) dropped.
    private func closeGroup(_ scope: TransactionScope, keeping: Bool) async {
        if !takeTurn() { await waitForTurn() }
        if let index = openGroups.lastIndex(where: { $0.scope === scope }) {
            while openGroups.count > index + 1 { close(openGroups.removeLast()) }
            let group = openGroups.removeLast()
            if keeping {
                close(group)
            } else if openGroups.isEmpty, let mark = cleanMark {
                cleanIndex = mark == groupEdits ? done.count : nil
                cleanMark = nil
            }
        }
        endTurn()
    }
}
