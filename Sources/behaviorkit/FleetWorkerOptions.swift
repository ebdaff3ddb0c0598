import ArgumentParser

/// The hidden options by which the driver of `machine-fleet` or `workflow-fleet` starts one of
/// its workers: that the process is a worker, its slot among the workers, and its label.
struct FleetWorkerOptions: ParsableArguments {
    @Flag(help: .hidden)
    var worker = false

    @Option(help: .hidden)
    var slot = 0

    @Option(help: .hidden)
    var label = "worker"

    /// Refuses a slot that is not below `workers`.
    func validate(workers: Int) throws {
        guard (0..<workers).contains(slot) else { throw ValidationError("--slot must be below --workers") }
    }
}
