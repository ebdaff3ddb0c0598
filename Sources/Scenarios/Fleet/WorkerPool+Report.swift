import BehaviorKitSync

/// What the report of every fleet run counts of its worker faults: the kills, the pauses, and
/// the workers started again after they exited on their own.
protocol FleetFaultReport: CustomStringConvertible {
    var kills: Int { get set }
    var pauses: Int { get set }
    var revived: Int { get set }
}

extension FleetReport: FleetFaultReport {}
extension WorkflowFleetReport: FleetFaultReport {}
extension MachineFleetReport: FleetFaultReport {}

extension WorkerPool {
    /// Ends the fleet run `run` of `workers` workers, whose pool stopped after `elapsed`: counts
    /// the pool's kills, pauses and revivals into `report`, prints the `violations`, closes the
    /// run's journal or store with `close`, and prints the run's line.
    func end(
        _ run: String, _ report: inout some FleetFaultReport, violations: [String], workers: Int, elapsed: Duration,
        console: Console, close: () async throws -> Void
    ) async throws {
        report.kills = kills
        report.pauses = pauses
        report.revived = revivals
        console.print(violations: violations)
        try await close()
        console.print(
            "\(run): \(workers) workers, \(report), in \(elapsed.shortDescription); \(violations.count) violations")
    }
}
