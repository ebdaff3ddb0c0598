/// Formats a phone number (or any string of digits) with a mask: each placeholder (`X`) takes the
/// next digit, every other character of the mask is copied.
///
/// The input may be typed in any way a person would type it:
/// - decimal digits of any script count as their ASCII digit (`"７"`, `"٧"`, `"७"` are `7`);
/// - input already formatted with the mask is taken as its own digits, so formatting is
///   idempotent (`"+7 (963) 448 02-09"` formats to itself);
/// - the mask's separators are skipped wherever they are typed.
///
/// It must hold exactly as many digits as the mask has placeholders. ``formatPartial(_:)``
/// formats the prefix typed so far, for a text field that formats as you type.
///
/// ```swift
/// let phone = MaskFormatter("+X (XXX) XXX XX-XX")
/// try phone.run("79634480209")          // "+7 (963) 448 02-09"
/// try phone.run("+7 (963) 448 02-09")   // "+7 (963) 448 02-09"
/// try phone.run("７９６３４４８０２０９")   // "+7 (963) 448 02-09"
/// try phone.formatPartial("7963")       // "+7 (963"
/// try phone.run("7963")                 // throws: mask: expected 11 digits, got 4 in "7963"
/// ```
public struct MaskFormatter: Handler {
    /// The digits to format (or text already formatted with this mask).
    public typealias Input = String
    /// The formatted text.
    public typealias Output = String

    /// The mask, such as `+X (XXX) XXX XX-XX`.
    public let mask: String
    /// The character of the mask that a digit replaces.
    public let placeholder: Character
    /// How many digits the mask takes.
    public let placeholderCount: Int

    /// The mask's characters: `nil` for a placeholder, the character to copy otherwise.
    let slots: [Character?]
    /// The characters the mask copies (its separators).
    let literals: Set<Character>

    /// Creates a formatter for `mask`, in which each `placeholder` takes one digit.
    public init(_ mask: String, placeholder: Character = "X") {
        self.mask = mask
        self.placeholder = placeholder
        self.slots = mask.map { $0 == placeholder ? nil : $0 }
        self.placeholderCount = slots.count { $0 == nil }
        self.literals = Set(mask.filter { $0 != placeholder })
    }

    /// Formats `input`, or throws a ``RuleViolation`` naming the first character that is neither
    /// a digit nor one of the mask's, or the wrong number of digits.
    public func format(_ input: String) throws(RuleViolation) -> String {
        let digits = try digits(in: input)
        guard digits.count == placeholderCount else {
            throw RuleViolation(
                rule: "mask", expected: Self.digits(placeholderCount), found: "\(digits.count)", input: input)
        }
        return fill(digits)
    }

    /// Formats the digits typed so far: the mask up to the last digit, and the whole mask once
    /// every placeholder has its digit.
    ///
    /// Takes what ``format(_:)`` takes, including what a previous call returned, so that a text
    /// field can pass its contents back after each keystroke.
    ///
    /// ```swift
    /// let phone = MaskFormatter("+X (XXX) XXX XX-XX")
    /// try phone.formatPartial("7")         // "+7"
    /// try phone.formatPartial("+7 (96")    // "+7 (96"
    /// try phone.formatPartial("+7 (9634")  // "+7 (963) 4"
    /// ```
    ///
    /// - Throws: a ``RuleViolation`` for a character that is neither a digit nor one of the
    ///   mask's, or for more digits than the mask takes.
    public func formatPartial(_ input: String) throws(RuleViolation) -> String {
        let digits = try digits(in: input)
        guard digits.count <= placeholderCount else {
            throw RuleViolation(
                rule: "mask", expected: "at most \(Self.digits(placeholderCount))", found: "\(digits.count)",
                input: input)
        }
        return fill(digits)
    }

    /// The ASCII digits of `input`: its decimal digits of any script, without the mask's
    /// characters.
    ///
    /// ```swift
    /// try MaskFormatter("+X (XXX) XXX XX-XX").digits(in: "+７ (963) 448 02-09")   // "79634480209"
    /// ```
    ///
    /// - Throws: a ``RuleViolation`` naming the first character that is neither.
    public func digits(in input: String) throws(RuleViolation) -> String {
        var digits = ""
        var index = 0
        var failure: RuleViolation?
        walk(input) { character, digit in
            if let digit {
                digits.unicodeScalars.append(Unicode.Scalar(UInt8(0x30 + digit)))
            } else if let character, failure == nil {
                failure = RuleViolation(
                    rule: "mask", expected: "a digit",
                    found: "\(String(reflecting: String(character))) at index \(index)", input: input)
            }
            index += 1
        }
        if let failure { throw failure }
        return digits
    }

    /// Passes `input` on formatted (see ``format(_:)``); throws the ``RuleViolation`` that `format`
    /// throws.
    public func handle(_ input: String, next: (String) throws -> String) throws -> String {
        try next(format(input))
    }

    /// The mask with its first `digits.count` placeholders filled, up to the last digit (the
    /// whole mask when every placeholder is filled).
    func fill(_ digits: String) -> String {
        var output = ""
        output.reserveCapacity(mask.utf8.count)
        var next = digits.startIndex
        var pendingLiterals = ""
        for slot in slots {
            if let literal = slot {
                pendingLiterals.append(literal)
            } else {
                guard next < digits.endIndex else { return output }
                output += pendingLiterals
                pendingLiterals = ""
                output.append(digits[next])
                next = digits.index(after: next)
            }
        }
        return output + pendingLiterals
    }

    /// Walks `input` against the mask, calling `visit` once per character: with its digit's
    /// value (0–9) when it is a decimal digit, with `(nil, nil)` when it is one of the mask's own
    /// characters (skipped), and with `(character, nil)` otherwise.
    ///
    /// A mask character in its place is skipped even when it is a digit (the `7` of a mask
    /// `+7 (XXX)`); elsewhere, a digit takes the next placeholder and a separator of the mask is
    /// skipped.
    func walk(_ input: String, _ visit: (Character?, Int?) -> Void) {
        var position = 0
        for character in input {
            if position < slots.count, let literal = slots[position], literal == character {
                position += 1
                visit(nil, nil)
            } else if let digit = character.decimalDigitValue {
                while position < slots.count, slots[position] != nil { position += 1 }
                position += 1
                visit(character, digit)
            } else if literals.contains(character) {
                visit(nil, nil)
            } else {
                visit(character, nil)
            }
        }
    }

    /// `1 digit`, `11 digits`.
    static func digits(_ count: Int) -> String { count == 1 ? "1 digit" : "\(count) digits" }
}
