extension UndoHistory {
    /// Opens a group: what is performed until the matching ``endGroup()`` becomes one step named
    /// `name`, as `UndoManager.beginUndoGrouping()` and `QUndoStack.beginMacro(_:)` do. For a
    /// drag that spans many UI events:
    ///
    /// ```swift
    /// await history.beginGroup("Move shape")                 // mouse down
    /// try await history.perform(Move(shape, to: point))      // each mouse move
    /// try await history.endGroup()                           // mouse up: one step, "Undo Move shape"
    /// ```
    ///
    /// Groups nest: an inner group becomes one step of the outer one. A group that performed
    /// nothing records nothing. Commands performed in a group clear redo, and coalesce with the
    /// group's last step as they would with the history's. ``undo()`` (and every other undo or
    /// redo) first closes a single group opened here, as `UndoManager.undo()` closes its
    /// top-level group, then undoes it; with groups nested, or inside the body of
    /// ``group(_:cost:_:)``, it throws ``UndoHistoryError/groupOpen(operation:groups:)``.
    ///
    /// - Parameters:
    ///   - name: the group's name: the step's name in menus ("Undo Drag").
    ///   - cost: what the group's step weighs against ``costLimit``, besides the costs of the
    ///     commands performed in it.
    public func beginGroup(_ name: String, cost: Int = 0) async {
        if !takeTurn() { await waitForTurn() }
        open(TransactionScope(name: name, observer: nil), cost: cost, isScoped: false)
        endTurn()
    }

    /// Closes the group opened last by ``beginGroup(_:cost:)``: its commands become one step of
    /// the history (or of the group around it), named as the group.
    ///
    /// - Throws: ``UndoHistoryError/noOpenGroup`` when no group opened by
    ///   ``beginGroup(_:cost:)`` is open (a ``group(_:cost:_:)`` closes itself).
    public func endGroup() async throws(UndoHistoryError) {
        if !takeTurn() { await waitForTurn() }
        guard let group = openGroups.last, !group.isScoped else {
            endTurn()
            throw .noOpenGroup
        }
        openGroups.removeLast()
        close(group)
        endTurn()
    }

    /// How many groups are open (``beginGroup(_:cost:)`` and running ``group(_:cost:_:)`` bodies).
    public var groupingLevel: Int { openGroups.count }

    /// Pushes a group (the turn is held).
    func open(_ scope: TransactionScope, cost: Int, isScoped: Bool) {
        if openGroups.isEmpty { groupEditsAtOpen = groupEdits }
        openGroups.append(OpenGroup(scope: scope, cost: Swift.max(0, cost), isScoped: isScoped))
    }

    /// Records a group taken off the stack: as a step of the group around it, or of the
    /// history; the outermost group settles a save point taken inside it (the turn is held).
    func close(_ group: OpenGroup) {
        if !group.scope.completedSteps.isEmpty {
            let step = group.scope.completedTransaction
            if openGroups.isEmpty {
                storeStep(step, cost: group.cost)
            } else {
                addToGroup(step, cost: group.cost, isEdit: false)
            }
        }
        if openGroups.isEmpty, let mark = cleanMark {
            cleanIndex = mark == groupEdits ? done.count : nil
            cleanMark = nil
        }
    }

    /// Adds an executed command to the innermost open group: coalesced with its last step when
    /// they share a key, dropped when obsolete (the turn is held).
    func addToGroup(_ command: any Command, cost: Int, isEdit: Bool = true) {
        let index = openGroups.count - 1
        let scope = openGroups[index].scope
        openGroups[index].cost = openGroups[index].cost.saturatingAdd(cost)
        if isEdit { groupEdits &+= 1 }
        clearRedo()
        var folded: (any Command)?
        if let key = command.coalescingKey, let top = scope.completedSteps.last, top.coalescingKey == key {
            folded = CoalescedCommands.coalesce(top, with: command)
        }
        scope.completedSteps.add(command, folded: folded)
        // The listeners hear of the group when it closes.
    }

    /// Before an undo or a redo, with the turn held: closes a single group opened by
    /// ``beginGroup(_:cost:)``, as `UndoManager.undo()` does; with more open, or a running
    /// ``group(_:cost:_:)`` body, ends the turn and throws ``UndoHistoryError/groupOpen(operation:groups:)``.
    @inline(never)
    func closeGroup(before operation: String) throws(UndoHistoryError) {
        if openGroups.isEmpty { return }
        guard openGroups.count == 1, !openGroups[0].isScoped else {
            let error = UndoHistoryError.groupOpen(operation: operation, groups: openGroups.map(\.scope.name))
            endTurn()
            throw error
        }
        close(openGroups.removeLast())
    }
}
