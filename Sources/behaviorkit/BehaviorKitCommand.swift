import ArgumentParser

struct BehaviorKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "behaviorkit",
        abstract: "Runs the BehaviorKit scenarios: state machines, commands and chains at work.",
        discussion: """
            Scenarios 1 to 6 are described in SCENARIOS.md, at the root of the BehaviorKit repository: each \
            system, its behaviour and its traces.
            """,
        // The tour, the scenarios in their numbered order, then the tools; the hidden children last.
        subcommands: [
            TourCommand.self,
            GarageCommand.self,
            CartCommand.self,
            MoviesCommand.self,
            VehicleCommand.self,
            PhoneCommand.self,
            CrossingCommand.self,
            LifecycleCommand.self,
            OrderWorkflowCommand.self,
            DiagramCommand.self,
            JournalCommand.self,
            FleetCommand.self,
            MachineFleetCommand.self,
            WorkflowFleetCommand.self,
            MachinesCommand.self,
            ConsoleCommand.self,
            CrashTestCommand.self,
            DiskCacheWorkerCommand.self,
        ]
    )
}
