/// Why a validator or formatter stopped a pipeline: the rule, what it expected, what it found,
/// and the input.
///
/// ```swift
/// do { try LengthValidator(exactly: 11).run("123") } catch let violation as RuleViolation {
///     print(violation)   // length: expected 11 characters, got 3 in "123"
/// }
/// ```
public struct RuleViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rule's name, such as `length` or `allowed characters`.
    public let rule: String
    /// What the rule expected, such as `11 characters`.
    public let expected: String
    /// What it found instead, such as `3`.
    public let found: String
    /// The input that broke the rule.
    public let input: String

    /// Creates a violation of `rule` by `input`.
    public init(rule: String, expected: String, found: String, input: String) {
        self.rule = rule
        self.expected = expected
        self.found = found
        self.input = input
    }

    /// `rule: expected …, got … in "input"`.
    public var description: String {
        "\(rule): expected \(expected), got \(found) in \(String(reflecting: input))"
    }
}
