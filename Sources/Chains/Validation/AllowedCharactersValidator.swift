/// Stops a pipeline at the first character that is not allowed.
///
/// ```swift
/// try AllowedCharactersValidator.digits.run("79a3")
/// // throws: allowed characters: expected only digits, got "a" at index 2 in "79a3"
/// let hex = AllowedCharactersValidator("0123456789abcdef", named: "hexadecimal digits")
/// ```
public struct AllowedCharactersValidator: Handler {
    /// The text to check.
    public typealias Input = String
    /// The same text, passed on unchanged.
    public typealias Output = String

    /// What the allowed characters are called in errors, such as `digits`.
    public let name: String

    @usableFromInline
    let isAllowed: @Sendable (Character) -> Bool

    /// Allows the characters for which `isAllowed` is true, called `name` in errors.
    public init(named name: String, _ isAllowed: @escaping @Sendable (Character) -> Bool) {
        self.name = name
        self.isAllowed = isAllowed
    }

    /// Allows the characters of `characters`, called `name` in errors.
    public init(_ characters: some Sequence<Character>, named name: String) {
        let set = Set(characters)
        self.init(named: name) { set.contains($0) }
    }

    /// The ASCII digits 0 to 9.
    public static let digits = AllowedCharactersValidator(named: "digits") { character in
        guard let ascii = character.asciiValue else { return false }
        return ascii >= 0x30 && ascii <= 0x39
    }

    /// Letters of any script.
    public static let letters = AllowedCharactersValidator(named: "letters") { $0.isLetter }

    /// Letters of any script and decimal digits.
    public static let lettersAndDigits = AllowedCharactersValidator(named: "letters and digits") {
        $0.isLetter || $0.isWholeNumber
    }

    /// Passes `input` on when every character is allowed; else throws a ``RuleViolation`` naming the
    /// first one that is not and where it is.
    @inlinable
    public func handle(_ input: String, next: (String) throws -> String) throws -> String {
        var index = 0
        for character in input {
            if !isAllowed(character) {
                throw RuleViolation(
                    rule: "allowed characters", expected: "only \(name)",
                    found: "\(String(reflecting: String(character))) at index \(index)", input: input)
            }
            index += 1
        }
        return try next(input)
    }
}
