import BehaviorKitSync

/// Stops a pipeline when the whole value does not match a regular expression.
///
/// ```swift
/// let email = try PatternValidator("[^@ ]+@[^@ ]+\\.[a-z]+")
/// try email.run("someone@example")
/// // throws: pattern: expected a match for [^@ ]+@[^@ ]+\.[a-z]+, got no match in "someone@example"
/// ```
public struct PatternValidator: Handler {
    /// The text to check.
    public typealias Input = String
    /// The same text, passed on unchanged.
    public typealias Output = String

    /// The pattern as errors name it.
    public let pattern: String

    private let box: RegexBox

    /// Compiles `pattern` (the syntax of Swift's `Regex`); the whole value must match it.
    ///
    /// - Throws: the compiler's error when `pattern` is not a valid regular expression.
    public init(_ pattern: String) throws {
        self.pattern = pattern
        self.box = RegexBox(try Regex(pattern))
    }

    /// Uses `regex`, called `description` in errors; the whole value must match it.
    public init<RegexOutput>(_ regex: Regex<RegexOutput>, describedAs description: String) {
        self.pattern = description
        self.box = RegexBox(Regex<AnyRegexOutput>(regex))
    }

    /// Passes `input` on when the whole of it matches the pattern; else throws a ``RuleViolation``
    /// naming the pattern.
    public func handle(_ input: String, next: (String) throws -> String) throws -> String {
        guard box.matchesWhole(input) else {
            throw RuleViolation(rule: "pattern", expected: "a match for \(pattern)", found: "no match", input: input)
        }
        return try next(input)
    }
}

/// `Regex` is not `Sendable`; matching under a lock makes sharing one safe.
private final class RegexBox: @unchecked Sendable {
    private let lock = Lock()
    private let regex: Regex<AnyRegexOutput>

    init(_ regex: Regex<AnyRegexOutput>) {
        self.regex = regex
    }

    func matchesWhole(_ input: String) -> Bool {
        lock.withLock { (try? regex.wholeMatch(in: input)) != nil }
    }
}
