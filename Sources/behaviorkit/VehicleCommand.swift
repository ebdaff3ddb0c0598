import ArgumentParser
import BehaviorKitTesting
import Scenarios

struct VehicleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vehicle",
        abstract: "Drives the vehicle state machine (scenario 4).",
        discussion: """
            Without options, runs the test sequence of scenario 4 (brake, accelerate, accelerate, brake, park, \
            brake, park) and waits the real 5 seconds for the vehicle to park.
            """
    )

    @Flag(help: "Fire timed transitions at once instead of waiting for them.")
    var instant = false

    @Option(help: "A comma-separated sequence of events to send: accelerate, brake, park.")
    var events: String?

    @Flag(help: "Read one event per line from standard input; print the state and speed after each.")
    var interactive = false

    func validate() throws {
        if interactive && events != nil {
            throw ValidationError("--interactive and --events cannot be used together")
        }
        if let events {
            do {
                _ = try VehicleScenario.events(
                    named: events.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    func run() async throws {
        if interactive {
            let lines = AnyIterator { readLine() }
            let errors: Int
            if instant {
                errors = await VehicleScenario.interactive(
                    lines: lines, clock: ImmediateClock(), console: .standardOutput)
            } else {
                errors = await VehicleScenario.interactive(
                    lines: lines, clock: ContinuousClock(), console: .standardOutput)
            }
            if errors > 0 { throw ExitCode.failure }
            return
        }
        let sequence =
            try events.map {
                try VehicleScenario.events(
                    named: $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
            } ?? VehicleScenario.articleEvents
        if instant {
            await VehicleScenario.run(
                events: sequence, clock: ImmediateClock(), console: .standardOutput, settleBetweenEvents: true)
        } else {
            await VehicleScenario.run(
                events: sequence, clock: ContinuousClock(), console: .standardOutput, settleBetweenEvents: false)
        }
    }
}
