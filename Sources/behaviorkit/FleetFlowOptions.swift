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
        try OptionRange.check("--partitions", partitions, in: 0...10_000)
        try OptionRange.check("--per-partition", perPartition, in: 1...1_000)
        try OptionRange.check("--schedules", schedules, in: 0...100)
        try OptionRange.check("--rate-limit", rateLimit, in: 0...100_000)
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
