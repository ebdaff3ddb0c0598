/// Stops a pipeline when the value is empty (or, if asked, only whitespace).
///
/// ```swift
/// try NonEmptyValidator().run("")
/// // throws: non-empty: expected at least one character, got 0 in ""
/// ```
public struct NonEmptyValidator: Handler {
    /// The text to check.
    public typealias Input = String
    /// The same text, passed on unchanged.
    public typealias Output = String

    /// Whether a value of only whitespace counts as empty.
    public let ignoresWhitespace: Bool

    /// Creates the rule; with `ignoringWhitespace`, `"  "` is empty too.
    public init(ignoringWhitespace: Bool = false) {
        self.ignoresWhitespace = ignoringWhitespace
    }

    /// Passes `input` on unless it is empty (or only whitespace, when told to ignore it); then throws
    /// a ``RuleViolation``.
    @inlinable
    public func handle(_ input: String, next: (String) throws -> String) throws -> String {
        if input.isEmpty || (ignoresWhitespace && input.allSatisfy(\.isWhitespace)) {
            throw RuleViolation(
                rule: "non-empty", expected: "at least one character",
                found: input.isEmpty ? "0" : "only whitespace", input: input)
        }
        return try next(input)
    }
}
