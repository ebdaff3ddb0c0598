import Chains
import Testing

struct ValidatorTests {
    private func message(_ body: () throws -> String) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func nonEmpty() throws {
        #expect(try NonEmptyValidator().run("a") == "a")
        #expect(
            message { try NonEmptyValidator().run("") } == #"non-empty: expected at least one character, got 0 in """#)
        #expect(try NonEmptyValidator().run("  ") == "  ")
        #expect(
            message { try NonEmptyValidator(ignoringWhitespace: true).run(" \t") }
                == #"non-empty: expected at least one character, got only whitespace in " \t""#)
    }

    @Test func lengthExact() throws {
        #expect(try LengthValidator(exactly: 3).run("abc") == "abc")
        #expect(
            message { try LengthValidator(exactly: 11).run("123") }
                == #"length: expected 11 characters, got 3 in "123""#)
        #expect(message { try LengthValidator(exactly: 1).run("") } == #"length: expected 1 character, got 0 in """#)
    }

    @Test func lengthRanges() throws {
        #expect(try LengthValidator(3...8).run("abcd") == "abcd")
        #expect(
            message { try LengthValidator(3...8).run("password1") }
                == #"length: expected 3 to 8 characters, got 9 in "password1""#)
        #expect(
            message { try LengthValidator(atLeast: 2).run("a") }
                == #"length: expected at least 2 characters, got 1 in "a""#)
        #expect(
            message { try LengthValidator(atMost: 2).run("abc") }
                == #"length: expected at most 2 characters, got 3 in "abc""#)
        #expect(
            message { try LengthValidator(atMost: 1).run("ab") }
                == #"length: expected at most 1 character, got 2 in "ab""#)
        #expect(
            message { try LengthValidator(0...1).run("ab") } == #"length: expected at most 1 character, got 2 in "ab""#)
        #expect(
            message { try LengthValidator(1...2).run("") } == #"length: expected 1 to 2 characters, got 0 in """#)
        // Characters, not bytes: "é" and a flag are one character each.
        #expect(try LengthValidator(exactly: 2).run("é🇫🇷") == "é🇫🇷")
    }

    @Test func allowedCharacters() throws {
        #expect(try AllowedCharactersValidator.digits.run("0123456789") == "0123456789")
        #expect(
            message { try AllowedCharactersValidator.digits.run("79a3") }
                == #"allowed characters: expected only digits, got "a" at index 2 in "79a3""#)
        #expect(
            message { try AllowedCharactersValidator.digits.run("٣") }
                == #"allowed characters: expected only digits, got "٣" at index 0 in "٣""#)
        let hex = AllowedCharactersValidator("0123456789abcdef", named: "hexadecimal digits")
        #expect(try hex.run("beef") == "beef")
        #expect(
            message { try hex.run("bEEf") }
                == #"allowed characters: expected only hexadecimal digits, got "E" at index 1 in "bEEf""#)
        #expect(try AllowedCharactersValidator.letters.run("Ωmega") == "Ωmega")
        #expect(
            message { try AllowedCharactersValidator.lettersAndDigits.run("a-1") }?.contains(#"got "-" at index 1"#)
                == true)
    }

    @Test func pattern() throws {
        let email = try PatternValidator(#"[^@ ]+@[^@ ]+\.[a-z]+"#)
        #expect(try email.run("someone@example.com") == "someone@example.com")
        #expect(
            message { try email.run("someone@example") }
                == #"pattern: expected a match for [^@ ]+@[^@ ]+\.[a-z]+, got no match in "someone@example""#)
        let code = PatternValidator(/[A-Z]{3}-\d{2}/, describedAs: "three capitals, a dash, two digits")
        #expect(try code.run("ABC-12") == "ABC-12")
        #expect(
            message { try code.run("xABC-12") }
                == #"pattern: expected a match for three capitals, a dash, two digits, got no match in "xABC-12""#)
        #expect(throws: (any Error).self) { try PatternValidator("(unclosed") }
    }

    @Test func maskFormatsDigits() throws {
        let phone = MaskFormatter("+X (XXX) XXX XX-XX")
        #expect(phone.placeholderCount == 11)
        #expect(try phone.run("79634480209") == "+7 (963) 448 02-09")
        #expect(try MaskFormatter("#-#", placeholder: "#").run("12") == "1-2")
    }

    @Test(arguments: [
        ("7963", #"mask: expected 11 digits, got 4 in "7963""#),
        ("", #"mask: expected 11 digits, got 0 in """#),
        ("796344802091", #"mask: expected 11 digits, got 12 in "796344802091""#),
        ("7963a480209", #"mask: expected a digit, got "a" at index 4 in "7963a480209""#),
        ("+7 (963) 448 02-0x", #"mask: expected a digit, got "x" at index 17 in "+7 (963) 448 02-0x""#),
    ])
    func maskRejects(input: String, expected: String) {
        #expect(throws: RuleViolation.self) { try MaskFormatter("+X (XXX) XXX XX-XX").format(input) }
        #expect(message { try MaskFormatter("+X (XXX) XXX XX-XX").run(input) } == expected)
    }

    @Test(arguments: [
        ("７９６３４４８０２０９", "full-width digits"),
        ("٧٩٦٣٤٤٨٠٢٠٩", "Arabic-Indic digits"),
        ("۷۹۶۳۴۴۸۰۲۰۹", "Persian digits"),
        ("७९६३४४८०२०९", "Devanagari digits"),
        ("7９6３4４8０2０9", "mixed digits"),
    ])
    func maskTakesAnyDecimalDigitAsASCII(input: String, script: String) throws {
        #expect(try MaskFormatter("+X (XXX) XXX XX-XX").run(input) == "+7 (963) 448 02-09", "\(script)")
    }

    @Test(arguments: ["+7 (963) 448 02-09", "+79634480209", "+7 (963) 4480209"])
    func maskTakesItsOwnFormattedOutput(input: String) throws {
        #expect(try MaskFormatter("+X (XXX) XXX XX-XX").run(input) == "+7 (963) 448 02-09")
    }

    @Test func aOnePlaceholderMaskSaysDigitInTheSingular() {
        #expect(message { try MaskFormatter("#X").run("12") } == #"mask: expected 1 digit, got 2 in "12""#)
    }

    @Test func violationNamesItsParts() {
        let violation = RuleViolation(rule: "length", expected: "11 characters", found: "3", input: "1\"2")
        #expect(violation.description == #"length: expected 11 characters, got 3 in "1\"2""#)
        #expect(violation.rule == "length")
    }

    @Test func firstFailureStopsThePipeline() {
        let phone = Pipeline {
            NonEmptyValidator()
            LengthValidator(exactly: 11)
            AllowedCharactersValidator.digits
            MaskFormatter("+X (XXX) XXX XX-XX")
        }
        #expect(message { try phone.run("") }?.hasPrefix("non-empty:") == true)
        #expect(message { try phone.run("12") }?.hasPrefix("length:") == true)
        #expect(message { try phone.run("7963448020x") }?.hasPrefix("allowed characters:") == true)
        #expect((try? phone.run("79634480209")) == "+7 (963) 448 02-09")
    }
}
