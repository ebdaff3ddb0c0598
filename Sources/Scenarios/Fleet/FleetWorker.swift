import Commands
import Foundation

extension Fleet {
    /// The worker side (`fleet --worker`): serves the orders queue until killed.
    public static func runWorker(
        owner: String, journal location: String, directory: String, lease: Duration
    ) async throws {
        let journal = try await JournalLocation.open(location)
        let ledger = try FleetLedger(path: ledgerPath(directory))
        let invoker = JournaledInvoker(
            journal: journal, registry: FleetOrders.registry(ledger, worker: owner), owner: owner, leaseDuration: lease)
        let queue = CommandQueue(FleetOrders.queue, journal: journal)
        let worker = QueueWorker(queue, invoker: invoker, slots: 8, pollInterval: .milliseconds(20))
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        await worker.run()
    }

    static func ledgerPath(_ directory: String) -> String { directory + "/ledger.sqlite" }
}
