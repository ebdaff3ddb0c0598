/// Passes on the input with its decimal digits of every script turned into ASCII `0`–`9`, and,
/// given a mask, without the mask's own characters: the first step of a pipeline that should
/// take a number however it was typed.
///
/// Any other character is kept, for the validators after it to name.
///
/// ```swift
/// let formatter = MaskFormatter("+X (XXX) XXX XX-XX")
/// let phone = Pipeline {
///     DigitNormalizer(mask: formatter)
///     LengthValidator(exactly: formatter.placeholderCount)
///     AllowedCharactersValidator.digits
///     formatter
/// }
/// try phone.run("+7 (963) 448 02-09")   // "+7 (963) 448 02-09"
/// try phone.run("７９６３４４８０２０９")   // "+7 (963) 448 02-09"
/// try phone.run("7963448020x")          // throws: allowed characters: expected only digits, got "x" at index 10 …
/// ```
public struct DigitNormalizer: Handler {
    /// The text as typed.
    public typealias Input = String
    /// The text with digits of any script made ASCII and, given a mask, without its characters.
    public typealias Output = String

    /// The mask whose characters are taken out, or `nil` to keep every character.
    public let mask: MaskFormatter?

    /// Creates the step; with `mask`, input formatted with it is reduced to its digits.
    public init(mask: MaskFormatter? = nil) {
        self.mask = mask
    }

    /// `input` with ASCII digits and, given a mask, without the mask's characters.
    ///
    /// ```swift
    /// DigitNormalizer().normalize("٧٩٦٣")   // "7963"
    /// ```
    public func normalize(_ input: String) -> String {
        var output = ""
        output.reserveCapacity(input.utf8.count)
        guard let mask else {
            for character in input {
                if let digit = character.decimalDigitValue {
                    output.unicodeScalars.append(Unicode.Scalar(UInt8(0x30 + digit)))
                } else {
                    output.append(character)
                }
            }
            return output
        }
        mask.walk(input) { character, digit in
            if let digit {
                output.unicodeScalars.append(Unicode.Scalar(UInt8(0x30 + digit)))
            } else if let character {
                output.append(character)
            }
        }
        return output
    }

    /// Passes `input` on normalized (see ``normalize(_:)``).
    public func handle(_ input: String, next: (String) throws -> String) throws -> String {
        try next(normalize(input))
    }
}
