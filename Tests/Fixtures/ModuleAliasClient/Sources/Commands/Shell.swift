/// The client's own `Commands` module: shell commands, say.
public struct Shell: Sendable {
    /// The command line.
    public let line: String

    /// A shell command.
    public init(_ line: String) {
        self.line = line
    }
}
