import ArgumentParser
import Scenarios

struct CartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cart",
        abstract: "Edits a shopping cart through an undo history of commands (scenario 2).",
        discussion: """
            Without options, runs a scripted session (add, reduce, undo, redo, undo at an index, undo all), \
            printing each line and the cart after it. With --interactive, reads one line at a time from standard \
            input: \(CartLine.usage).
            """
    )

    @Flag(help: "Read one line per edit from standard input; print the cart after each.")
    var interactive = false

    func run() async throws {
        if interactive {
            let errors = await CartScenario.run(
                lines: AnyIterator { readLine() }, console: .standardOutput, echo: false)
            if errors > 0 { throw ExitCode.failure }
        } else {
            _ = await CartScenario.run(lines: CartScenario.scriptedLines, console: .standardOutput, echo: true)
        }
    }
}
