/// One scenario as the tour shows it.
public struct TourStop: Sendable {
    /// The CLI subcommand that runs this scenario on its own.
    public let command: String
    /// The heading printed above the scenario's trace.
    public let title: String
    /// Runs the scenario's demo with its defaults (timers fire at once, fixed seeds).
    public let run: @Sendable (Console) async throws -> Void

    public init(command: String, title: String, run: @escaping @Sendable (Console) async throws -> Void) {
        self.command = command
        self.title = title
        self.run = run
    }
}

/// Every scenario of SCENARIOS.md that exists, in the order the tour shows them.
///
/// Each scenario adds its stop here (one line) when it lands.
public enum Tour {
    public static let stops: [TourStop] = [
        GarageScenario.tourStop,
        CartScenario.tourStop,
        MoviesScenario.tourStop,
        VehicleScenario.tourStop,
        PhoneScenario.tourStop,
        CrossingScenario.tourStop,
        LifecycleScenario.tourStop,
        OrderWorkflowScenario.tourStop,
    ]

    /// Runs every stop under its heading.
    public static func run(on console: Console) async throws {
        for (index, stop) in stops.enumerated() {
            if index > 0 { console.print("") }
            console.print("== \(stop.title) (behaviorkit \(stop.command)) ==")
            try await stop.run(console)
        }
    }
}
