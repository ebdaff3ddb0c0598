import BehaviorKitTesting
import Chains
import Scenarios
import Testing

struct PhoneScenarioTests {
    @Test func articleNumberIsFormatted() {
        let (console, recording) = Console.recording()
        let errors = PhoneScenario.run(lines: ["79634480209"], console: console)
        #expect(errors == 0)
        #expect(recording.lines == ["+7 (963) 448 02-09"])
    }

    @Test func everyLineIsHandledAndErrorsAreCounted() {
        let (console, recording) = Console.recording()
        let errors = PhoneScenario.run(
            lines: ["79634480209", "", "123", " 89161234567 ", "7963448020x"], console: console)
        #expect(errors == 3)
        #expect(
            recording.lines == [
                "+7 (963) 448 02-09",
                #"error: non-empty: expected at least one character, got 0 in """#,
                #"error: length: expected 11 characters, got 3 in "123""#,
                "+8 (916) 123 45-67",
                #"error: allowed characters: expected only digits, got "x" at index 10 in "7963448020x""#,
            ])
    }

    @Test func anotherMaskSetsTheLength() {
        let (console, recording) = Console.recording()
        let errors = PhoneScenario.run(lines: ["4155550123", "79634480209"], mask: "(XXX) XXX-XXXX", console: console)
        #expect(errors == 1)
        #expect(
            recording.lines == [
                "(415) 555-0123",
                #"error: length: expected 10 characters, got 11 in "79634480209""#,
            ])
    }

    @Test func builderAndLinkedPipelinesAgree() throws {
        func outcome(_ body: () throws -> String) -> String {
            do { return try body() } catch { return "error: \(error)" }
        }
        for input in ["79634480209", "", "1", "7963448020x"] {
            let built = outcome { try PhoneScenario.pipeline().run(input) }
            #expect(built == outcome { try PhoneScenario.linkedPipeline().run(input) })
            #expect(built.hasPrefix(input.count == 11 && input.last != "x" ? "+7" : "error: "))
        }
    }

    @Test func maskWithoutPlaceholderIsRefused() {
        #expect(throws: InvalidMaskError.self) { try PhoneScenario.validate(mask: "+7 (999)") }
        #expect(throws: Never.self) { try PhoneScenario.validate(mask: "X") }
    }
}

struct PhoneScenarioInputTests {
    @Test(arguments: [
        "+7 (963) 448 02-09", "７９６３４４８０２０９", "٧٩٦٣٤٤٨٠٢٠٩", "+７ (９６３) ４４８ ０２-０９",
    ])
    func formattedAndNonASCIIDigitsPassThroughThePipeline(input: String) throws {
        #expect(try PhoneScenario.pipeline().run(input) == "+7 (963) 448 02-09")
        #expect(try PhoneScenario.linkedPipeline().run(input) == "+7 (963) 448 02-09")
    }
}

struct PhoneScenarioTypingTests {
    @Test func theFieldIsFormattedAfterEachDigit() {
        let (console, recording) = Console.recording()
        let errors = PhoneScenario.type(numbers: ["7963", "+7 (9a"], console: console)
        #expect(errors == 1)
        #expect(
            recording.lines == [
                "+7", "+7 (9", "+7 (96", "+7 (963",
                "+7", "+7 (9", #"error: mask: expected a digit, got "a" at index 5 in "+7 (9a""#,
            ])
    }
}
