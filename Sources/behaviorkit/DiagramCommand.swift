import ArgumentParser
import Scenarios
import StateMachines

struct DiagramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagram",
        abstract: "Prints a scenario's state machine as a diagram."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case mermaid, dot, scxml
    }

    enum Machine: String, ExpressibleByArgument, CaseIterable {
        case vehicle, crossing
    }

    @Argument(help: "The machine to draw: \(Machine.allCases.map(\.rawValue).joined(separator: ", ")).")
    var machine: Machine

    @Option(help: "mermaid (stateDiagram-v2), dot (Graphviz) or scxml (W3C SCXML 1.0).")
    var format: Format = .mermaid

    func run() {
        switch machine {
        case .vehicle: StandardStream.output.writeLine(format.render(VehicleMachine.definition()))
        case .crossing: StandardStream.output.writeLine(format.render(CrossingMachine.definition()))
        }
    }
}

extension DiagramCommand.Format {
    func render<State, Event, Context>(_ definition: StateMachineDefinition<State, Event, Context>) -> String {
        switch self {
        case .mermaid: definition.mermaid()
        case .dot: definition.dot()
        case .scxml: definition.scxml()
        }
    }
}
