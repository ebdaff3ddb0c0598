import ArgumentParser

@main
struct BehaviorKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "behaviorkit",
        abstract: "Runs the BehaviorKit scenarios: state machines, commands and chains at work.",
        subcommands: [
            TourCommand.self,
            GarageCommand.self,
            CartCommand.self,
            VehicleCommand.self,
            CrossingCommand.self,
            PhoneCommand.self,
            MoviesCommand.self,
            DiagramCommand.self,
            JournalCommand.self,
            FleetCommand.self,
            CrashTestCommand.self,
            DiskCacheWorkerCommand.self,
        ]
    )
}
