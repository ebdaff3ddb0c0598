/// How a command an invoker ran ended.
///
/// ```swift
/// for outcome in invoker.outcomes {
///     print(outcome)  // "finished: save to DB" or "failed: add to API: the backend is down"
/// }
/// ```
public enum CommandOutcome: Sendable, CustomStringConvertible {
    /// The command's `execute()` returned.
    case finished(any Command)
    /// The command's `execute()` threw `error`.
    case failed(any Command, error: any Error)

    /// The command that ran.
    public var command: any Command {
        switch self {
        case .finished(let command), .failed(let command, _): command
        }
    }

    /// What the command threw, or `nil` when it finished.
    public var error: (any Error)? {
        switch self {
        case .finished: nil
        case .failed(_, let error): error
        }
    }

    /// Whether the command finished without an error.
    public var isFinished: Bool { error == nil }

    /// "finished: <name>" or "failed: <name>: <error>".
    public var description: String {
        switch self {
        case .finished(let command): "finished: \(command.name)"
        case .failed(let command, let error): "failed: \(command.name): \(error)"
        }
    }
}
