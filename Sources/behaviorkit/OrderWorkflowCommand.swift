import ArgumentParser
import Scenarios

struct OrderWorkflowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "order-workflow",
        abstract: "A durable workflow finishes in another worker: an order waits for its payment, sleeps, ships.",
        discussion: """
            An order workflow on a SQLite journal reserves its items, waits for its payment message (sent twice, \
            received once), charges, then sleeps an hour before shipping. Its worker is killed while the run \
            sleeps; an hour later (a manual clock) a worker of another process takes the run up from the journal \
            and ships it. Each step runs once.
            """
    )

    func run() async throws {
        do {
            try await OrderWorkflowScenario.run(console: .standardOutput)
        } catch {
            throw failure("\(error)")
        }
    }
}
