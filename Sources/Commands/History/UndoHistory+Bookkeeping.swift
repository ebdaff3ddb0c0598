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
        defer { endTurn() }
        guard command.canUndo else {
            forgetAll()
            if !streams.isEmpty { tell(.performed(command.name)) }
            return
        }
        if !undone.isEmpty {
            undone.removeAll(keepingCapacity: true)
            if let clean = cleanIndex, clean > done.count { cleanIndex = nil }
        }
        totalCost += cost
        if let key = command.coalescingKey, let top = done.last, cleanIndex != done.count,
            top.command.coalescingKey == key
        {
            done[done.count - 1] = Entry(
                command: CoalescedCommands.coalesce(top.command, with: command), cost: top.cost + cost)
            trimToLimits()
            if !streams.isEmpty { tell(.coalesced(command.name)) }
            return
        }
        done.append(Entry(command: command, cost: cost))
        if limit != nil || costLimit != nil { trimToLimits() }
        if !streams.isEmpty { tell(.performed(command.name)) }
    }

    /// Moves an undone entry to the redo stack, tells the listeners and ends the turn.
    @inline(never)
    func didUndo(_ entry: consuming Entry) {
        totalCost -= entry.cost
        undone.append(entry)
        if !streams.isEmpty { tell(.undone(undone[undone.count - 1].command.name)) }
        endTurn()
    }

    /// Moves a redone entry back to the undo stack, tells the listeners and ends the turn.
    @inline(never)
    func didRedo(_ entry: consuming Entry) {
        totalCost += entry.cost
        done.append(entry)
        if !streams.isEmpty { tell(.redone(done[done.count - 1].command.name)) }
        endTurn()
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
            var cost = totalCost - done[..<drop].reduce(0) { $0 + $1.cost }
            while cost > costLimit, drop < done.count - 1 {
                cost -= done[drop].cost
                drop += 1
            }
        }
        guard drop > 0 else { return }
        totalCost -= done[..<drop].reduce(0) { $0 + $1.cost }
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
