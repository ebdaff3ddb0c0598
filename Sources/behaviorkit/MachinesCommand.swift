import ArgumentParser
import Foundation
import Scenarios

struct MachinesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "machines",
        abstract: "Reads a durable machine's instances: counts by state, the keys in a state, or a key's history.",
        discussion: """
            Reads the store alone (a SQLite file or a postgres:// URL), without the machine's definition. With \
            --key, prints the instance's version and active states, then every step of its history: when, what \
            caused it, the configuration it left, its event id. With --state, the keys in that state in order of \
            entry. Otherwise, how many instances each state holds. --format json prints JSON for scripts.
            """
    )

    @Argument(help: "The machine store: a SQLite file, or a postgres:// URL.")
    var store: String

    @Option(help: "The durable machine's name.")
    var machine: String

    @Option(help: "List the keys in this state.")
    var state: String?

    @Option(help: "Print this key's history.")
    var key: String?

    @Option(help: "The most keys or steps to print.")
    var limit = 1_000

    @Option(help: "text or json.")
    var format: JournalFormat = .text

    func validate() throws {
        try OptionRange.check("--limit", limit, in: 1...1_000_000)
        if state != nil && key != nil { throw ValidationError("give --state or --key, not both") }
    }

    func run() async throws {
        guard JournalLocation.isServerURL(store) || FileManager.default.fileExists(atPath: store) else {
            throw failure("machine store \(store): no such file")
        }
        do {
            try await MachineListing.run(
                location: store, machine: machine, state: state, key: key, limit: limit,
                format: format == .json ? .json : .text, console: .standardOutput)
        } catch {
            throw failure("\(error)")
        }
    }
}
