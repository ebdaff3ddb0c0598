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

    @Option(
        help: "Run on the durable command journal in this SQLite file (created if missing); recover what it left first."
    )
    var journal: String?

    @Option(
        help: "With --journal: how many seconds a write waits for another process's lock before it fails (0 to 86400).")
    var busyTimeout: Double = 10

    func validate() throws {
        try OptionRange.check("--busy-timeout", busyTimeout, in: 0...86_400)
    }

    func run() async throws {
        guard let journal else {
            await GarageScenario.run(failAPI: failAPI, console: .standardOutput)
            return
        }
        do {
            // validate() keeps it within 0...86400 seconds: whole milliseconds fit an Int64.
            let timeout = Duration.milliseconds(Int64((busyTimeout * 1000).rounded()))
            try await GarageScenario.run(
                failAPI: failAPI, journalPath: journal, busyTimeout: timeout, console: .standardOutput)
        } catch {
            throw failure("\(error)")
        }
    }
}
