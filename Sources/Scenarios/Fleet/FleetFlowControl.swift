import Commands

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The queue's flow control under the fleet's faults: orders of a few customers (partitions) with
/// a limit per customer, a rate limit on the queue, the queue paused and resumed fleet-wide
/// mid-run, and schedules whose ticks every worker's scheduler races to enqueue.
public struct FleetFlowControl: Sendable, Hashable {
    /// How many customers the orders belong to (order `n` to customer `n % partitions`); 0: no
    /// partitions, no limit per customer.
    public var partitions = 0
    /// How many orders of one customer may run at once, across the fleet.
    public var perPartition = 2
    /// Whether the driver pauses the queue for ``queuePause`` once mid-run, then resumes it.
    public var pausesQueue = false
    /// How long the queue stays paused.
    public var queuePause: Duration = .seconds(4)
    /// How many schedules tick every minute (each worker runs a scheduler); 0: none.
    public var schedules = 0
    /// The queue's rate limit, in starts a second across the fleet (a token bucket on the
    /// journal's clock, no burst); 0: none.
    public var startsPerSecond = 0

    /// No flow control.
    public init() {}

    /// The customer of order `number`, or `nil` without partitions.
    func partition(ofOrder number: Int) -> String? {
        partitions > 0 ? "customer-\(number % partitions)" : nil
    }

    /// The customer of the order whose key is `root` ("order-12"), or `nil`.
    func partition(ofRoot root: String) -> String? {
        guard partitions > 0, root.hasPrefix("order-"), let number = Int(root.dropFirst("order-".count)) else {
            return nil
        }
        return partition(ofOrder: number)
    }

    /// The worker-side arguments that carry these settings (`fleet --worker`).
    var workerArguments: [String] {
        var arguments: [String] = []
        if partitions > 0 { arguments += ["--partitions", "\(partitions)", "--per-partition", "\(perPartition)"] }
        if schedules > 0 { arguments += ["--schedules", "\(schedules)"] }
        return arguments
    }
}

/// A scheduled tick's command: its ledger effect is keyed by the tick's record.
struct FleetTick: Codable, Sendable {
    static let kind = "fleet.tick"
    var schedule: String
}

extension FleetFlowControl {
    /// The schedules: `fleet-tick-0`… on the orders queue, every minute in UTC, catching up at
    /// most three missed ticks.
    func tickSchedules() throws -> [QueueSchedule] {
        try (0..<schedules).map { index in
            let name = "fleet-tick-\(index)"
            return QueueSchedule(
                name, cron: try CronExpression("* * * * *"), timeZone: TimeZone(identifier: "UTC") ?? .current,
                queue: FleetOrders.queue, kind: FleetTick.kind,
                payload: Array(try JSONEncoder().encode(FleetTick(schedule: name))), missedRuns: .catchUp(atMost: 3))
        }
    }
}
