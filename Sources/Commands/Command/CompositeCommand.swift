/// A macro: one command that runs a list of commands, all or nothing.
///
/// Executing runs the commands in order; when one fails, those already run are undone in
/// reverse and the error is a ``TransactionError``. Undoing undoes them in reverse. It is a
/// ``Transaction`` without an observer, under the name menus show.
///
/// ```swift
/// let restock = CompositeCommand("Restock", [
///     AddGoods(cart: cart, item: "apples", count: 6),
///     AddGoods(cart: cart, item: "pears", count: 4),
/// ])
/// try await history.perform(restock)  // one undo step: "Undo Restock"
/// ```
public struct CompositeCommand: Command {
    /// The name shown in menus and logs.
    public let name: String

    /// The commands, in the order they run.
    public let commands: [any Command]

    /// Creates a macro named `name` of `commands`.
    public init(_ name: String, _ commands: [any Command]) {
        self.name = name
        self.commands = commands
    }

    /// Whether one of the commands can be undone (an empty macro can: there is nothing to do).
    public var canUndo: Bool { commands.isEmpty || commands.contains { $0.canUndo } }

    /// Runs the commands in order; when one fails, undoes those already run in reverse.
    ///
    /// - Throws: ``TransactionError``.
    public func execute() async throws {
        try await Transaction(name, steps: commands).run()
    }

    /// Undoes the commands in reverse; when one fails, redoes those already undone.
    ///
    /// - Throws: ``TransactionError``.
    public func undo() async throws {
        try await Transaction(name, steps: commands).revert()
    }
}
