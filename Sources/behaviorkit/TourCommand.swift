import ArgumentParser
import Scenarios

struct TourCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tour",
        abstract: "Runs every scenario once, in the order of SCENARIOS.md, each under a heading."
    )

    func run() async throws {
        try await Tour.run(on: .standardOutput)
    }
}
