import ArgumentParser
import Scenarios

/// The `fleet` options that turn the queue's flow control on under the faults: limits per
/// customer, a rate limit, a pause of the queue, schedules.
struct FleetFlowOptions: ParsableArguments {
    @Option(help: "Orders belong to this many customers, each limited to --per-partition running at once (0: none).")
    var partitions = 0

    @Option(help: "How many orders of one customer may run at once across the fleet, with --partitions.")
    var perPartition = 2

    @Flag(help: "Pause the queue fleet-wide for 4 s a third into the kills, then resume it.")
    var pauseQueue = false

    @Option(help: "How many schedules tick every minute, raced by a scheduler in every worker (0: none).")
    var schedules = 0

    @Option(help: "The queue's rate limit in starts a second across the fleet (0: none).")
    var rateLimit = 0

    func validate() throws {
        guard (0...10_000).contains(partitions) else {
            throw ValidationError("--partitions must be between 0 and 10000")
        }
        guard (1...1_000).contains(perPartition) else {
            throw ValidationError("--per-partition must be between 1 and 1000")
        }
        guard (0...100).contains(schedules) else { throw ValidationError("--schedules must be between 0 and 100") }
        guard (0...100_000).contains(rateLimit) else {
            throw ValidationError("--rate-limit must be between 0 and 100000")
        }
    }

    /// The flow control these options ask for.
    var control: FleetFlowControl {
        var flow = FleetFlowControl()
        flow.partitions = partitions
        flow.perPartition = perPartition
        flow.pausesQueue = pauseQueue
        flow.schedules = schedules
        flow.startsPerSecond = rateLimit
        return flow
    }
}
