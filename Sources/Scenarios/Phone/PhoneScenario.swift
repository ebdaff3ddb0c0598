public import Chains

/// Scenario 5: a phone number passes through a validation and formatting pipeline.
///
/// The pipeline takes the number however it was typed (digits of any script, or already formatted
/// with the mask), rejects an empty value, requires exactly as many characters as the mask has
/// placeholders (11 for the article's mask), requires digits, and formats with the mask.
public enum PhoneScenario {
    /// The article's mask: each `X` takes the next digit.
    public static let defaultMask = "+X (XXX) XXX XX-XX"

    /// The article's number.
    public static let articleNumber = "79634480209"

    /// The pipeline for `mask`, built with ``HandlerBuilder``.
    public static func pipeline(mask: String = defaultMask) -> some Handler<String, String> {
        let formatter = MaskFormatter(mask)
        return Pipeline {
            DigitNormalizer(mask: formatter)
            NonEmptyValidator()
            LengthValidator(exactly: formatter.placeholderCount)
            AllowedCharactersValidator.digits
            formatter
        }
    }

    /// The same pipeline linked with `|>`, as the article writes it.
    public static func linkedPipeline(mask: String = defaultMask) -> some Handler<String, String> {
        let formatter = MaskFormatter(mask)
        return DigitNormalizer(mask: formatter)
            |> NonEmptyValidator()
            |> LengthValidator(exactly: formatter.placeholderCount)
            |> AllowedCharactersValidator.digits
            |> formatter
    }

    /// Formats each line (surrounding whitespace ignored) and prints the result, or
    /// `error: <the rule's message>` for a line the pipeline rejects.
    ///
    /// - Returns: the number of lines rejected.
    public static func run(lines: some Sequence<String>, mask: String = defaultMask, console: Console) -> Int {
        let phone = pipeline(mask: mask)
        var errors = 0
        for line in lines {
            do {
                console.print(try phone.run(line.trimmingWhitespace()))
            } catch {
                errors += 1
                console.print("error: \(error)")
            }
        }
        return errors
    }

    /// Types each number into a field that formats as you type, one character at a time, and
    /// prints the field after each digit; prints `error: <the rule's message>` and goes on with
    /// the next number when a character cannot be taken.
    ///
    /// - Returns: the number of numbers rejected.
    public static func type(numbers: some Sequence<String>, mask: String = defaultMask, console: Console) -> Int {
        let formatter = MaskFormatter(mask)
        var errors = 0
        for number in numbers {
            var field = ""
            do {
                for character in number.trimmingWhitespace() {
                    let typed = try formatter.formatPartial(field + String(character))
                    if typed != field { console.print(typed) }
                    field = typed
                }
            } catch {
                errors += 1
                console.print("error: \(error)")
            }
        }
        return errors
    }

    /// Whether `mask` can format anything: it needs at least one `X`.
    public static func validate(mask: String) throws(InvalidMaskError) {
        if MaskFormatter(mask).placeholderCount == 0 { throw InvalidMaskError(mask: mask) }
    }

    /// The tour's stop: the article's number, then one that is too short.
    public static let tourStop = TourStop(
        command: "phone \(articleNumber) 7963448", title: "Phone number: a validation pipeline"
    ) { console in
        _ = run(lines: [articleNumber, "7963448"], console: console)
    }
}

/// A mask without any placeholder.
public struct InvalidMaskError: Error, CustomStringConvertible, Sendable {
    /// The mask given.
    public let mask: String

    public var description: String {
        "the mask \(String(reflecting: mask)) has no X: each X takes one digit of the number"
    }
}
