/// Undo and redo for commands: the undo stack of a document, a cart or a canvas, on any
/// platform and from any task.
///
/// `perform` executes a command and records it; `undo` and `redo` walk the record. Redo is
/// cleared by a new command. Consecutive commands with the same ``Command/coalescingKey``
/// become one step (a drag), ``group(_:cost:_:)`` makes one step of many commands, limits by
/// count and by cost forget the oldest steps, a save point tells whether the document is clean,
/// and ``changes(bufferingPolicy:)`` streams every change for a UI.
///
/// ```swift
/// let history = UndoHistory(limit: 100)
/// try await history.perform(AddGoods(cart: cart, item: "apples", count: 2))
/// await history.status.undoMenuTitle  // "Undo Add 2 apples"
/// try await history.undo()            // cart is empty again
/// try await history.redo()            // 2 apples
/// try await history.undo()
/// try await history.undo()            // throws UndoHistoryError.nothingToUndo
/// ```
///
/// Operations run one at a time, in the order they are called: an undo called while a
/// command is executing waits for it. A command must not call back into its history while it
/// executes or undoes (it would wait for itself).
public actor UndoHistory {
    struct Entry {
        var command: any Command
        var cost: Int
    }

    var done: [Entry] = []
    var undone: [Entry] = []
    var totalCost = 0
    /// `done.count` at the save point; `nil` when the saved state can no longer be reached.
    var cleanIndex: Int? = 0
    var busy = false
    var turnWaiters: [CheckedContinuation<Void, Never>] = []
    var streams: [(id: UInt64, continuation: AsyncStream<UndoHistoryChange>.Continuation)] = []
    var nextStreamID: UInt64 = 0

    /// The most steps kept (`nil`: no limit); the oldest are forgotten first.
    public let limit: Int?

    /// The most total cost kept (`nil`: no limit); the oldest steps are forgotten first, but
    /// the newest step is always kept.
    public let costLimit: Int?

    /// Creates an empty history, clean, with optional limits.
    ///
    /// - Parameters:
    ///   - limit: the most steps to keep (values below 0 count as 0: nothing is kept).
    ///   - costLimit: the most total cost to keep (the `cost` given to ``perform(_:cost:)``).
    public init(limit: Int? = nil, costLimit: Int? = nil) {
        self.limit = limit.map { max(0, $0) }
        self.costLimit = costLimit
    }

    deinit {
        for stream in streams { stream.continuation.finish() }
        for waiter in turnWaiters { waiter.resume() }
    }

    /// Executes `command` and records it as one undo step (or folds it into the last step when
    /// both share a ``Command/coalescingKey``). Clears redo.
    ///
    /// A command that cannot be undone (``Command/canUndo`` is `false`) is executed and then the
    /// history is cleared: nothing before it can be undone any more.
    ///
    /// - Parameter cost: what the step weighs against ``costLimit`` (memory, say).
    /// - Throws: what the command's `execute()` threw; the history is then unchanged.
    public func perform(_ command: any Command, cost: Int = 0) async throws {
        if busy { await waitForTurn() }
        busy = true
        defer { passTurn() }
        try await command.execute()
        store(command, cost: cost)
    }

    /// Records `command`, already executed, as one step: what ``perform(_:cost:)`` does after
    /// executing it.
    public func record(_ command: any Command, cost: Int = 0) async {
        if busy { await waitForTurn() }
        busy = true
        defer { passTurn() }
        store(command, cost: cost)
    }

    func store(_ command: any Command, cost: Int) {
        guard command.canUndo else {
            forgetAll()
            notify { .performed(command.name) }
            return
        }
        if !undone.isEmpty {
            undone.removeAll(keepingCapacity: true)
            if let clean = cleanIndex, clean > done.count { cleanIndex = nil }
        }
        if let key = command.coalescingKey, let top = done.last, cleanIndex != done.count,
            top.command.coalescingKey == key
        {
            done[done.count - 1] = Entry(
                command: CoalescedCommands.coalesce(top.command, with: command), cost: top.cost + cost)
            totalCost += cost
            trimToLimits()
            notify { .coalesced(command.name) }
            return
        }
        done.append(Entry(command: command, cost: cost))
        totalCost += cost
        if limit != nil || costLimit != nil { trimToLimits() }
        notify { .performed(command.name) }
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

    func waitForTurn() async {
        await withCheckedContinuation { turnWaiters.append($0) }
    }

    func passTurn() {
        if turnWaiters.isEmpty {
            busy = false
        } else {
            turnWaiters.removeFirst().resume()
        }
    }
}
