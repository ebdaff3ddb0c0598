/// Formats a string of digits with a mask: each placeholder (`X`) takes the next digit, every
/// other character of the mask is copied.
///
/// The input must hold exactly as many digits as the mask has placeholders, and nothing else.
///
/// ```swift
/// let phone = MaskFormatter("+X (XXX) XXX XX-XX")
/// try phone.run("79634480209")   // "+7 (963) 448 02-09"
/// try phone.run("7963")          // throws: mask: expected 11 digits, got 4 in "7963"
/// ```
public struct MaskFormatter: Handler {
    public typealias Input = String
    public typealias Output = String

    /// The mask, such as `+X (XXX) XXX XX-XX`.
    public let mask: String
    /// The character of the mask that a digit replaces.
    public let placeholder: Character
    /// How many digits the mask takes.
    public let placeholderCount: Int

    /// Creates a formatter for `mask`, in which each `placeholder` takes one digit.
    public init(_ mask: String, placeholder: Character = "X") {
        self.mask = mask
        self.placeholder = placeholder
        self.placeholderCount = mask.count { $0 == placeholder }
    }

    /// Formats `digits`, or throws a ``RuleViolation`` naming the first non-digit or the wrong
    /// count.
    public func format(_ digits: String) throws(RuleViolation) -> String {
        var count = 0
        for character in digits {
            guard character.asciiValue.map({ $0 >= 0x30 && $0 <= 0x39 }) == true else {
                throw RuleViolation(
                    rule: "mask", expected: "a digit",
                    found: "\(String(reflecting: String(character))) at index \(count)", input: digits)
            }
            count += 1
        }
        guard count == placeholderCount else {
            throw RuleViolation(rule: "mask", expected: "\(placeholderCount) digits", found: "\(count)", input: digits)
        }
        var output = ""
        output.reserveCapacity(mask.utf8.count)
        var next = digits.startIndex
        for character in mask {
            if character == placeholder {
                output.append(digits[next])
                next = digits.index(after: next)
            } else {
                output.append(character)
            }
        }
        return output
    }

    public func handle(_ input: String, next: (String) throws -> String) throws -> String {
        try next(format(input))
    }
}
