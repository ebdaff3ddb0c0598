import ArgumentParser
import Scenarios

struct PhoneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "phone",
        abstract: "Validates and formats phone numbers with a handler pipeline (scenario 5).",
        discussion: """
            Each number passes through: digits of any script made ASCII and the mask's own characters taken \
            out (so "+7 (963) 448 02-09" and "７９６３４４８０２０９" are accepted), non-empty, exactly as many \
            characters as the mask has X's, digits only, and the mask. Without numbers, formats each line of \
            standard input. A rejected number prints 'error: <rule>: expected …, got … in "<input>"'; the exit \
            code is non-zero when any number was rejected, after every number is handled. With --as-you-type, \
            prints the field after each digit, as a text field that formats while you type.
            """
    )

    @Argument(help: "The numbers to format, e.g. 79634480209. Without any, reads standard input.")
    var numbers: [String] = []

    @Option(help: "The mask: each X takes the next digit, every other character is copied.")
    var mask = PhoneScenario.defaultMask

    @Flag(help: "Show the number formatted after each digit typed, as a text field that formats as you type.")
    var asYouType = false

    func validate() throws {
        do {
            try PhoneScenario.validate(mask: mask)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let errors: Int
        if asYouType {
            let lines = numbers.isEmpty ? Array(AnyIterator { readLine() }) : numbers
            errors = PhoneScenario.type(numbers: lines, mask: mask, console: .standardOutput)
        } else if numbers.isEmpty {
            errors = PhoneScenario.run(lines: AnyIterator { readLine() }, mask: mask, console: .standardOutput)
        } else {
            errors = PhoneScenario.run(lines: numbers, mask: mask, console: .standardOutput)
        }
        if errors > 0 { throw ExitCode.failure }
    }
}
