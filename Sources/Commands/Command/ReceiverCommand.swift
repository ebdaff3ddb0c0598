/// A command over any receiver: the receiver does the work, the command says which.
///
/// The generic command of the Command pattern: one type for every command whose work is a call
/// on a receiver of type `Receiver`, instead of one type per command.
///
/// ```swift
/// let save = ReceiverCommand("save to DB", on: database) { db in
///     try await db.save(vehicle)
/// } undo: { db in
///     try await db.delete(vehicle)
/// }
/// ```
public struct ReceiverCommand<Receiver: Sendable>: Command {
    /// The name shown in menus and logs.
    public let name: String

    /// The object the closures act on.
    public let receiver: Receiver

    /// The key under which consecutive commands coalesce, if any.
    public let coalescingKey: String?

    @usableFromInline
    let run: @Sendable (Receiver) async throws -> Void

    @usableFromInline
    let revert: (@Sendable (Receiver) async throws -> Void)?

    /// Creates a command named `name` that calls `execute` on `receiver`, and `undo` to reverse it.
    public init(
        _ name: String,
        on receiver: Receiver,
        coalescingKey: String? = nil,
        execute: @escaping @Sendable (Receiver) async throws -> Void,
        undo: (@Sendable (Receiver) async throws -> Void)? = nil
    ) {
        self.name = name
        self.receiver = receiver
        self.coalescingKey = coalescingKey
        self.run = execute
        self.revert = undo
    }

    /// Whether an `undo` closure was given.
    public var canUndo: Bool { revert != nil }

    /// Calls the `execute` closure on the receiver.
    @inlinable
    public func execute() async throws {
        try await run(receiver)
    }

    /// Calls the `undo` closure on the receiver.
    ///
    /// - Throws: ``CommandError/cannotUndo(command:)`` when there is none.
    @inlinable
    public func undo() async throws {
        guard let revert else { throw CommandError.cannotUndo(command: name) }
        try await revert(receiver)
    }
}
