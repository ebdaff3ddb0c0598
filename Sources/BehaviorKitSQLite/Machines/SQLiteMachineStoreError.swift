/// Why a SQLite machine store could not be opened or used, naming the file.
public struct SQLiteMachineStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public let path: String
    /// What went wrong.
    public let reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// "machine store '<path>': <reason>".
    public var description: String { "machine store '\(path)': \(reason)" }
}
