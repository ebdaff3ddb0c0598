import Commands
import Foundation

extension Fleet {
    /// The worker side (`fleet --worker`): serves the orders queue until killed, or until its
    /// driver is gone (however the driver ended: the worker is then adopted by another parent,
    /// and exits instead of polling for ever).
    ///
    /// - Parameters:
    ///   - owner: the stable worker identity ("w2"): a restarted worker takes back at once what
    ///     its killed incarnation held.
    ///   - label: this incarnation's name in the ledger ("w2.5").
    ///   - driver: the driver's process id (a driver that died before this worker started is
    ///     noticed too); `nil`: the parent at start.
    public static func runWorker(
        owner: String, label: String, journal location: String, directory: String, lease: Duration,
        flow: FleetFlowControl = FleetFlowControl(), driver: Int32? = nil
    ) async throws {
        let orphaned = OrphanWatch.start(driver: driver)
        defer { orphaned.cancel() }
        let journal = try await JournalLocation.open(location)
        let ledger = try FleetLedger(path: ledgerPath(directory))
        let invoker = JournaledInvoker(
            journal: journal, registry: FleetOrders.registry(ledger, worker: label), owner: owner, leaseDuration: lease)
        let queue = CommandQueue(
            FleetOrders.queue, journal: journal,
            concurrencyPerPartition: flow.partitions > 0 ? flow.perPartition : nil)
        // An enqueue wakes the worker (its journal's wake-ups); the poll finds the records whose
        // lease ended (a paused worker's), which nothing announces.
        let worker = QueueWorker(queue, invoker: invoker, slots: 8, pollInterval: .milliseconds(100))
        StandardStream.output.writeLine("ready")
        guard flow.schedules > 0 else {
            await worker.run()
            return
        }
        // Every worker runs a scheduler: each tick is enqueued once however many race for it.
        let scheduler = QueueScheduler(journal: journal, poll: .milliseconds(500))
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await worker.run() }
            group.addTask { try? await scheduler.run() }
            await group.waitForAll()
        }
    }

    static func ledgerPath(_ directory: String) -> String { directory + "/ledger.sqlite" }
}
