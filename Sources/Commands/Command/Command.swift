/// An action as a value: something that can be executed, and usually undone.
///
/// A command holds everything it needs (its receiver and arguments), so an invoker, a
/// transaction or an ``UndoHistory`` can run it later, log it, undo it and redo it without
/// knowing what it does.
///
/// ```swift
/// struct AddGoods: Command {
///     let cart: ShoppingCart, item: String, count: Int
///     var name: String { "Add \(count) \(item)" }
///     func execute() async throws { try cart.add(item, count) }
///     func undo() async throws { try cart.reduce(item, count) }
/// }
/// try await history.perform(AddGoods(cart: cart, item: "apples", count: 2))
/// ```
///
/// `execute()` and `undo()` run on the caller's executor (the package enables
/// `NonisolatedNonsendingByDefault`), so a command that does not suspend costs one call.
public protocol Command: Sendable {
    /// The name shown in menus and logs: "Add 2 apples".
    var name: String { get }

    /// Whether ``undo()`` reverses ``execute()``. Defaults to `true`.
    ///
    /// A transaction does not compensate a step that cannot be undone, and an ``UndoHistory``
    /// forgets everything before such a command (it cannot undo past it).
    var canUndo: Bool { get }

    /// Consecutive commands with the same non-`nil` key coalesce into one undo step, as Qt's
    /// `QUndoStack` merges commands that share an id (a drag becomes one step). Defaults to `nil`.
    var coalescingKey: String? { get }

    /// Does the work.
    func execute() async throws

    /// Reverses ``execute()``.
    func undo() async throws

    /// Folds `next` (a later command with the same ``coalescingKey``) into this one, or returns
    /// `nil` to keep both (an ``UndoHistory`` then undoes them together, newest first).
    ///
    /// ```swift
    /// func coalesced(with next: any Command) -> (any Command)? {
    ///     guard let next = next as? Move else { return nil }
    ///     return Move(shape: shape, from: from, to: next.to)
    /// }
    /// ```
    func coalesced(with next: any Command) -> (any Command)?

    /// Whether the command no longer changes anything, so that an ``UndoHistory`` drops it, as
    /// Qt's `QUndoCommand::setObsolete`: a coalesced move back to where it started, or an
    /// edit whose target is gone. Checked when the command is performed or coalesced, and
    /// after each undo and redo. Defaults to `false`.
    ///
    /// ```swift
    /// var isObsolete: Bool { from == to }  // dragged back to the start: nothing to undo
    /// ```
    var isObsolete: Bool { get }
}

extension Command {
    /// Commands can be undone unless they say otherwise.
    public var canUndo: Bool { true }

    /// Commands do not coalesce unless they say otherwise.
    public var coalescingKey: String? { nil }

    /// Commands keep their later neighbours separate unless they say otherwise.
    public func coalesced(with next: any Command) -> (any Command)? { nil }

    /// Commands stay useful unless they say otherwise.
    public var isObsolete: Bool { false }
}
