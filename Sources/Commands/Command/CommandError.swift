/// An error a ready-made command throws on its own account.
public enum CommandError: Error, Sendable, Equatable, CustomStringConvertible {
    /// ``Command/undo()`` was called on a command that cannot be undone.
    case cannotUndo(command: String)

    /// A readable account naming the command.
    public var description: String {
        switch self {
        case .cannotUndo(let command): "the command '\(command)' cannot be undone"
        }
    }
}
