import Chains
import Testing

struct MaskFormatterTests {
    let phone = MaskFormatter("+X (XXX) XXX XX-XX")

    @Test(arguments: [
        ("", ""),
        ("7", "+7"),
        ("79", "+7 (9"),
        ("796", "+7 (96"),
        ("7963", "+7 (963"),
        ("79634", "+7 (963) 4"),
        ("7963448020", "+7 (963) 448 02-0"),
        ("79634480209", "+7 (963) 448 02-09"),
    ])
    func formatsAsYouTypeUpToTheLastDigit(typed: String, shown: String) throws {
        #expect(try phone.formatPartial(typed) == shown)
        // A text field passes its contents back, with one more digit each time.
        #expect(try phone.formatPartial(shown) == shown)
    }

    @Test func typingOneDigitAtATimeThroughTheFieldEndsAtTheFullFormat() throws {
        var field = ""
        for digit in "７９６３４４８０２０９" { field = try phone.formatPartial(field + String(digit)) }
        #expect(field == "+7 (963) 448 02-09")
        #expect(try phone.format(field) == field)
    }

    @Test func aCompleteNumberGetsTheMasksTrailingCharacters() throws {
        let area = MaskFormatter("(XXX)")
        #expect(try area.formatPartial("12") == "(12")
        #expect(try area.formatPartial("123") == "(123)")
        #expect(try area.format("123") == "(123)")
    }

    @Test func partialFormattingRefusesWhatTheMaskCannotTake() {
        #expect(throws: RuleViolation(rule: "mask", expected: "at most 11 digits", found: "12", input: "796344802091"))
        {
            try phone.formatPartial("796344802091")
        }
        #expect(throws: RuleViolation(rule: "mask", expected: "a digit", found: #""a" at index 5"#, input: "+7 (9a")) {
            try phone.formatPartial("+7 (9a")
        }
    }

    @Test func aDigitOfTheMaskInItsPlaceIsTheMasksNotTheNumbers() throws {
        let russian = MaskFormatter("+7 (XXX) XXX-XX-XX")
        #expect(try russian.format("+7 (963) 448-02-09") == "+7 (963) 448-02-09")
        #expect(try russian.format("9634480209") == "+7 (963) 448-02-09")
        #expect(try russian.digits(in: "+7 (963) 448-02-09") == "9634480209")
    }

    @Test func separatorsTypedElsewhereAreSkipped() throws {
        #expect(try phone.format("+7 963 448-02-09") == "+7 (963) 448 02-09")
        #expect(try phone.digits(in: "+７ (963) 448 02-09") == "79634480209")
    }

    @Test func theNormalizerMakesDigitsASCIIAndKeepsWhatItDoesNotKnow() {
        #expect(DigitNormalizer().normalize("٧٩٦x３") == "796x3")
        #expect(DigitNormalizer().normalize("+7 (963)") == "+7 (963)")
        #expect(DigitNormalizer(mask: phone).normalize("+7 (963) 448 02-0x") == "7963448020x")
        #expect(DigitNormalizer(mask: phone).normalize("") == "")
    }
}
