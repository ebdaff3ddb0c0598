import ArgumentParser
import Scenarios
import StateMachines

struct DiagramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagram",
        abstract: "Prints a scenario's state machine as a diagram."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case mermaid, dot
    }

    enum Machine: String, ExpressibleByArgument, CaseIterable {
        case vehicle
    }

    @Argument(help: "The machine to draw: \(Machine.allCases.map(\.rawValue).joined(separator: ", ")).")
    var machine: Machine

    @Option(help: "mermaid (stateDiagram-v2) or dot (Graphviz).")
    var format: Format = .mermaid

    func run() {
        let definition = VehicleMachine.definition()
        switch format {
        case .mermaid: print(definition.mermaid())
        case .dot: print(definition.dot())
        }
    }
}
