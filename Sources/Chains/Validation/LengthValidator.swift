/// Stops a pipeline when the value's length, in characters, is out of bounds.
///
/// ```swift
/// try LengthValidator(exactly: 11).run("123")
/// // throws: length: expected 11 characters, got 3 in "123"
/// try LengthValidator(3...8).run("password1")
/// // throws: length: expected 3 to 8 characters, got 9 in "password1"
/// ```
public struct LengthValidator: Handler {
    /// The text to check.
    public typealias Input = String
    /// The same text, passed on unchanged.
    public typealias Output = String

    /// The fewest characters allowed.
    public let minimum: Int
    /// The most characters allowed, or `nil` for no limit.
    public let maximum: Int?

    /// Requires exactly `count` characters.
    public init(exactly count: Int) {
        self.minimum = count
        self.maximum = count
    }

    /// Requires a length within `range`.
    public init(_ range: ClosedRange<Int>) {
        self.minimum = range.lowerBound
        self.maximum = range.upperBound
    }

    /// Requires at least `minimum` characters.
    public init(atLeast minimum: Int) {
        self.minimum = minimum
        self.maximum = nil
    }

    /// Requires at most `maximum` characters.
    public init(atMost maximum: Int) {
        self.minimum = 0
        self.maximum = maximum
    }

    /// What the rule expects, as its errors say it: `11 characters`, `3 to 8 characters`,
    /// `at most 1 character`.
    public var expectation: String {
        func characters(_ count: Int) -> String { count == 1 ? "1 character" : "\(count) characters" }
        return switch maximum {
        case .some(let maximum) where maximum == minimum: characters(minimum)
        case .some(let maximum) where minimum <= 0: "at most \(characters(maximum))"
        case .some(let maximum): "\(minimum) to \(maximum) characters"
        case .none: "at least \(characters(minimum))"
        }
    }

    /// Passes `input` on when its length in characters is allowed; else throws a ``RuleViolation``
    /// with the expected and the found length.
    @inlinable
    public func handle(_ input: String, next: (String) throws -> String) throws -> String {
        let count = input.count
        if count < minimum || count > (maximum ?? .max) {
            throw RuleViolation(rule: "length", expected: expectation, found: "\(count)", input: input)
        }
        return try next(input)
    }
}
