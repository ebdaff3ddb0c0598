/// Undo and redo for commands: the undo stack of a document, a cart or a canvas, on any
/// platform.
///
/// `perform` executes a command and records it; `undo` and `redo` walk the record, and
/// ``setIndex(_:)`` jumps to any point of it, as `QUndoStack` does. Redo is cleared by a new
/// command. Consecutive commands with the same ``Command/coalescingKey`` become one step (a
/// drag), and a step that coalesces into nothing (``Command/isObsolete``) is dropped.
/// ``group(_:cost:_:)`` makes one step of many commands, and ``beginGroup(_:cost:)`` /
/// ``endGroup()`` one step of everything performed between two calls (a drag over many UI
/// events). Limits by count and by cost forget the oldest steps, a save point tells whether the
/// document is clean, action names can be changed, and ``changes(bufferingPolicy:)`` streams
/// every change for a UI.
///
/// ```swift
/// let history = UndoHistory(limit: 100)
/// try await history.perform(cart.adding("apple", 2))
/// history.status.undoMenuTitle  // "Undo Add 2 apples"
/// try await history.undo()      // the cart is empty again
/// try await history.redo()      // 2 apples
/// try await history.undo()
/// try await history.undo()      // throws UndoHistoryError.nothingToUndo
/// ```
///
/// A history belongs to one isolation domain, as `UndoManager` belongs to the main actor: keep
/// it in a `@MainActor` model, or in the actor that owns the document, and its methods run
/// there, with no lock and no hop (the package's async functions run on the caller's
/// executor). Operations run one at a time, in the order they are called: an undo called
/// while a command is suspended in `execute()` waits for it, so many tasks may drive the same
/// history through its owner without losing or tearing a step. A command must not call back
/// into its history while it runs (it would wait for itself).
public final class UndoHistory {
    struct Entry {
        var command: any Command
        var cost: Int
    }

    /// A group that is open: what is performed goes into its scope's steps.
    struct OpenGroup {
        let scope: TransactionScope
        var cost: Int
        /// Opened by ``group(_:cost:_:)``, whose body is running (it closes when the body returns).
        let isScoped: Bool
    }

    /// Every mutable field, behind a pointer (see `UndoHistory+State.swift`).
    let state: UnsafeMutablePointer<State>

    /// The most steps kept (`nil`: no limit); the oldest are forgotten first. Lowering it
    /// forgets the oldest steps at once; values below 0 count as 0.
    ///
    /// ```swift
    /// history.limit = 10  // as UndoManager's levelsOfUndo and QUndoStack's undoLimit
    /// ```
    public var limit: Int? {
        get { state.pointee.limit }
        set {
            state.pointee.limit = newValue.map { Swift.max(0, $0) }
            trimToLimits()
        }
    }

    /// The most total cost kept (`nil`: no limit); the oldest steps are forgotten first, but
    /// the newest step is always kept. Lowering it forgets the oldest steps at once.
    public var costLimit: Int? {
        get { state.pointee.costLimit }
        set {
            state.pointee.costLimit = newValue
            trimToLimits()
        }
    }

    /// Creates an empty history, clean, with optional limits.
    ///
    /// - Parameters:
    ///   - limit: the most steps to keep (values below 0 count as 0: nothing is kept).
    ///   - costLimit: the most total cost to keep (the `cost` given to ``perform(_:cost:)``).
    public init(limit: Int? = nil, costLimit: Int? = nil) {
        state = .allocate(capacity: 1)
        state.initialize(to: State(limit: limit.map { Swift.max(0, $0) }, costLimit: costLimit))
    }

    deinit {
        for stream in state.pointee.streams { stream.finish() }
        for waiter in state.pointee.turnWaiters { waiter.resume() }
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Executes `command` and records it as one undo step (or folds it into the last step when
    /// both share a ``Command/coalescingKey``). Clears redo.
    ///
    /// A command that cannot be undone (``Command/canUndo`` is `false`) is executed and then the
    /// history is cleared: nothing before it can be undone any more. A command that is
    /// ``Command/isObsolete`` once executed (or once coalesced) is not kept.
    ///
    /// While a group is open (``beginGroup(_:cost:)``, or the body of ``group(_:cost:_:)``), the
    /// command becomes a step of the innermost group instead, and clears redo.
    ///
    /// - Parameters:
    ///   - command: the command to execute and keep for undo.
    ///   - cost: what the step weighs against ``costLimit`` (memory, say); below 0 counts as 0,
    ///     and totals stop at `Int.max`.
    /// - Throws: what the command's `execute()` threw; the history is then unchanged.
    public func perform(_ command: any Command, cost: Int = 0) async throws {
        if !takeTurn() { await waitForTurn() }
        do {
            try await command.execute()
        } catch {
            endTurn()
            throw error
        }
        store(command, cost: cost)
    }

    /// Records `command`, already executed, as one step: what ``perform(_:cost:)`` does after
    /// executing it.
    public func record(_ command: any Command, cost: Int = 0) async {
        if !takeTurn() { await waitForTurn() }
        store(command, cost: cost)
    }
}
