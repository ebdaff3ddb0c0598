/// A command made of closures: no new type per command.
///
/// ```swift
/// let add = ClosureCommand("Add 2 apples") {
///     try cart.add("apples", 2)
/// } undo: {
///     try cart.reduce("apples", 2)
/// }
/// ```
///
/// Without an `undo` closure the command cannot be undone (``canUndo`` is `false`, and
/// ``undo()`` throws ``CommandError/cannotUndo(command:)``).
public struct ClosureCommand: Command {
    /// The name shown in menus and logs.
    public let name: String

    /// The key under which consecutive commands coalesce, if any.
    public let coalescingKey: String?

    @usableFromInline
    let run: @Sendable () async throws -> Void

    @usableFromInline
    let revert: (@Sendable () async throws -> Void)?

    /// Creates a command named `name` that runs `execute`, and `undo` to reverse it.
    public init(
        _ name: String,
        coalescingKey: String? = nil,
        execute: @escaping @Sendable () async throws -> Void,
        undo: (@Sendable () async throws -> Void)? = nil
    ) {
        self.name = name
        self.coalescingKey = coalescingKey
        self.run = execute
        self.revert = undo
    }

    /// Whether an `undo` closure was given.
    public var canUndo: Bool { revert != nil }

    /// Runs the `execute` closure.
    @inlinable
    public func execute() async throws {
        try await run()
    }

    /// Runs the `undo` closure.
    ///
    /// - Throws: ``CommandError/cannotUndo(command:)`` when there is none.
    @inlinable
    public func undo() async throws {
        guard let revert else { throw CommandError.cannotUndo(command: name) }
        try await revert()
    }
}
