// The synchronous bookkeeping behind the async operations. Kept out of the async functions so
// that their frames hold little more than the entry in flight: a frame larger than the task
// allocator's first slab costs a malloc per call.

extension UndoHistory {
    /// Takes the turn if no operation holds it.
    @inline(never)
    func takeTurn() -> Bool {
        if busy { return false }
        busy = true
        return true
    }

    func waitForTurn() async {
        await withCheckedContinuation { turnWaiters.append($0) }
    }

    /// Ends the current operation's turn, handing it to the next waiting operation if any.
    @inline(never)
    func endTurn() {
        if turnWaiters.isEmpty {
            busy = false
        } else {
            turnWaiters.removeFirst().resume()
        }
    }

    /// Records an executed command (clears redo, coalesces or appends, trims to the limits),
    /// tells the listeners and ends the turn.
    @inline(never)
    func store(_ command: any Command, cost: Int) {
        let cost = Swift.max(0, cost)
        if openGroups.isEmpty {
            storeStep(command, cost: cost)
        } else {
            addToGroup(command, cost: cost)
        }
        endTurn()
    }

    /// Records `command` as a step of the undo stack (the turn is held).
    func storeStep(_ command: any Command, cost: Int) {
        guard command.canUndo else {
            forgetAll()
            if !streams.isEmpty { tell(.performed(command.name)) }
            return
        }
        clearRedo()
        if let key = command.coalescingKey, let top = done.last, cleanIndex != done.count,
            top.command.coalescingKey == key
        {
            let folded = CoalescedCommands.coalesce(top.command, with: command)
            if folded.isObsolete {
                // The edits cancel out: the step goes (QUndoCommand::setObsolete).
                done.removeLast()
                totalCost = Swift.max(0, totalCost - top.cost)
            } else {
                totalCost = totalCost.saturatingAdd(cost)
                done[done.count - 1] = Entry(command: folded, cost: top.cost.saturatingAdd(cost))
                trimToLimits()
            }
            if !streams.isEmpty { tell(.coalesced(command.name)) }
            return
        }
        if !command.isObsolete {
            totalCost = totalCost.saturatingAdd(cost)
            done.append(Entry(command: command, cost: cost))
            if limit != nil || costLimit != nil { trimToLimits() }
        }
        if !streams.isEmpty { tell(.performed(command.name)) }
    }

    func clearRedo() {
        guard !undone.isEmpty else { return }
        undone.removeAll(keepingCapacity: true)
        if let clean = cleanIndex, clean > done.count { cleanIndex = nil }
    }

    /// Moves an undone entry to the redo stack, tells the listeners and ends the turn.
    @inline(never)
    func didUndo(_ entry: consuming Entry) {
        moveToRedo(entry)
        endTurn()
    }

    /// Moves an undone entry to the redo stack (or drops it when it is now obsolete) and tells
    /// the listeners.
    func moveToRedo(_ entry: consuming Entry) {
        totalCost = Swift.max(0, totalCost - entry.cost)
        if entry.command.isObsolete {
            if let clean = cleanIndex, clean > done.count { cleanIndex = nil }
            if !streams.isEmpty { tell(.undone(entry.command.name)) }
            return
        }
        undone.append(entry)
        if !streams.isEmpty { tell(.undone(undone[undone.count - 1].command.name)) }
    }

    /// Moves a redone entry back to the undo stack, tells the listeners and ends the turn.
    @inline(never)
    func didRedo(_ entry: consuming Entry) {
        _ = moveToDone(entry)
        endTurn()
    }

    /// Moves a redone entry to the undo stack (or drops it when it is now obsolete), tells the
    /// listeners, and returns whether it was kept.
    func moveToDone(_ entry: consuming Entry) -> Bool {
        if entry.command.isObsolete {
            if let clean = cleanIndex, clean > done.count { cleanIndex = nil }
            if !streams.isEmpty { tell(.redone(entry.command.name)) }
            return false
        }
        totalCost = totalCost.saturatingAdd(entry.cost)
        done.append(entry)
        if !streams.isEmpty { tell(.redone(done[done.count - 1].command.name)) }
        return true
    }

    /// Puts back an entry whose undo or redo failed, ends the turn, and makes the error.
    @inline(never)
    func failed(_ entry: consuming Entry, undoing: Bool, error: any Error) -> UndoHistoryError {
        let name = entry.command.name
        if undoing { done.append(entry) } else { undone.append(entry) }
        endTurn()
        return undoing ? .undoFailed(action: name, error: error) : .redoFailed(action: name, error: error)
    }

    func forgetAll() {
        done.removeAll()
        undone.removeAll()
        totalCost = 0
        cleanIndex = nil
    }

    /// Forgets the oldest steps beyond the count and cost limits.
    ///
    /// - Complexity: O(*n*) in the steps kept, when a step is forgotten.
    func trimToLimits() {
        var drop = 0
        if let limit, done.count > limit { drop = done.count - limit }
        if let costLimit {
            var cost = Swift.max(0, totalCost - done[..<drop].reduce(0) { $0.saturatingAdd($1.cost) })
            while cost > costLimit, drop < done.count - 1 {
                cost -= done[drop].cost
                drop += 1
            }
        }
        guard drop > 0 else { return }
        totalCost = Swift.max(0, totalCost - done[..<drop].reduce(0) { $0.saturatingAdd($1.cost) })
        done.removeFirst(drop)
        cleanIndex = cleanIndex.flatMap { $0 >= drop ? $0 - drop : nil }
    }

    /// Tells every live stream; forgets the streams that ended.
    func tell(_ kind: UndoHistoryChange.Kind) {
        let change = UndoHistoryChange(kind: kind, status: status)
        streams.removeAll { stream in
            if case .terminated = stream.yield(change) { return true }
            return false
        }
    }
}
