import Commands
import Foundation

extension WorkflowFleet {
    /// The worker side (`workflow-fleet --worker`): sends the payment messages of its share of
    /// the orders (again after every restart: the ids make the repeats no-ops) and runs the
    /// workflows until killed, or until its driver is gone.
    ///
    /// - Parameters:
    ///   - slot: the worker's slot, of `workers`: its share is every `workers`-th order from `slot`;
    ///     its stable identity is "w<slot>", so that a restarted worker takes back at once what its
    ///     killed incarnation held.
    ///   - label: this incarnation's name in the ledger ("w2.5").
    ///   - patched: whether this worker runs the code version with the patch.
    public static func runWorker(
        slot: Int, workers: Int, workflows count: Int, label: String, journal location: String, directory: String,
        lease: Duration, patched: Bool, driver: Int32?
    ) async throws {
        let orphaned = OrphanWatch.start(driver: driver)
        defer { orphaned.cancel() }
        let journal = try await JournalLocation.open(location)
        let ledger = try FleetLedger(path: Fleet.ledgerPath(directory))
        let workflows = engine(journal, ledger, owner: "w\(slot)", label: label, lease: lease, patched: patched)
        let running = Task { await workflows.run() }
        defer { running.cancel() }
        StandardStream.output.writeLine("ready")
        for number in stride(from: slot, to: count, by: max(1, workers)) {
            try await FleetWorkflows.sendPayment(number, workflows)
        }
        StandardStream.output.writeLine("sent")
        await running.value
    }
}
