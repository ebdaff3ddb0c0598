import ArgumentParser
import Scenarios

struct CrossingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crossing",
        abstract:
            "Runs the pedestrian crossing statechart (scenario 6): nested lights, a parallel state, deep history.",
        discussion: """
            Without options, runs the default script: a pedestrian presses the button at 2 s, the crossing goes \
            into service at 4 s (someone presses at 5 s) and resumes where it left off at 10 s, and is switched \
            off at 30 s. Time is simulated, so the run takes no real time.
            """
    )

    @Option(
        help:
            "A script of SECONDS:EVENT items, such as 2:button,4:service,10:resume. Events: button, service, resume, shutdown."
    )
    var script: String?

    func validate() throws {
        if let script {
            do {
                _ = try CrossingScenario.script(script)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    func run() async throws {
        let steps = try script.map { try CrossingScenario.script($0) } ?? CrossingScenario.defaultScript
        await CrossingScenario.run(script: steps, console: .standardOutput)
    }
}
