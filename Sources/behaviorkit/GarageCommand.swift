import ArgumentParser
import Scenarios

struct GarageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "garage",
        abstract: "Registers vehicles with commands, a transaction and a batch invoker (scenario 1).",
        discussion: """
            Queues five commands on a batch invoker of size 5: add to API, save to DB, log, a transaction \
            [log, save to DB, add to API, log], and a log for a second vehicle. The fifth fills the batch, so all \
            five run; the run ends with the finished and failed counts.
            """
    )

    @Flag(help: "Make the backend API fail: the transaction then compensates its steps in reverse.")
    var failAPI = false

    func run() async {
        await GarageScenario.run(failAPI: failAPI, console: .standardOutput)
    }
}
