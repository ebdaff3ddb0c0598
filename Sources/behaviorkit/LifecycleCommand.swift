import ArgumentParser
import Scenarios

struct LifecycleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifecycle",
        abstract: "A durable state machine survives a kill: a child pays a parcel and is killed; this process goes on.",
        discussion: """
            A child process starts parcel p1 on a SQLite machine store and pays it; it is killed with SIGKILL before \
            the payment's effect runs. This process retries the payment (answered from the history, not applied \
            again), runs the effect the child left and fires the delivery timer, then prints p1's history.
            """
    )

    @Flag(help: .hidden)
    var child = false

    @Option(help: .hidden)
    var store: String?

    func run() async throws {
        do {
            if child, let store {
                try await LifecycleScenario.runChild(store: store)
                return
            }
            try await LifecycleScenario.run(console: .standardOutput)
        } catch {
            throw failure("\(error)")
        }
    }
}
