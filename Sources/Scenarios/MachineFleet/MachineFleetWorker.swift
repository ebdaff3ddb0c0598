import Commands
import DurableMachines
import Foundation

extension MachineFleet {
    /// The worker side (`machine-fleet --worker`): starts its share of the keys and sends their
    /// events (all of them again after a restart: the ids make the repeats replays), writing
    /// each acknowledged event id to its log, and fires timers and runs effects until killed or
    /// until its driver is gone.
    public static func runWorker(
        slot: Int, workers: Int, label: String, store location: String, directory: String, keys: Int, seed: UInt64,
        lease: Duration, driver: Int32?
    ) async throws {
        let orphaned = OrphanWatch.start(driver: driver)
        defer { orphaned.cancel() }
        let durable = try await DurableLocation.open(location)
        let parcels = ParcelLifecycle.machine(durable.machines, journal: durable.journal)
        let invoker = JournaledInvoker(
            journal: durable.journal, registry: ParcelLifecycle.registry, owner: label, leaseDuration: lease)
        let deliveries = QueueWorker(
            CommandQueue(ParcelLifecycle.deliveries, journal: durable.journal), invoker: invoker, slots: 4,
            pollInterval: .milliseconds(20))
        let background = Task {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask {
                    try await parcels.runTimersAndEffects(
                        owner: label, pollInterval: .milliseconds(20), leaseDuration: lease)
                }
                group.addTask { await deliveries.run() }
            }
        }
        let acknowledgements = try AcknowledgementLog(path: "\(directory)/acks-\(label).log")
        StandardStream.output.writeLine("ready")
        for number in stride(from: slot, to: keys, by: max(1, workers)) {
            let key = ParcelLifecycle.key(number)
            try await parcels.start(key, context: Parcel())
            for (id, event) in ParcelLifecycle.plan(number, seed: seed) {
                try await parcels.send(event, to: key, id: id)
                acknowledgements.append(id)
            }
        }
        StandardStream.output.writeLine("sent")
        try await background.value
    }
}

/// The event ids a process saw acknowledged, one per line, written as each is.
final class AcknowledgementLog: Sendable {
    private let handle: FileHandle

    init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw MachineStoreLocationError(description: "cannot write the acknowledgement log \(path)")
        }
        handle.seekToEndOfFile()
        self.handle = handle
    }

    /// Writes `id` (a killed process loses no line it wrote: the kernel keeps it).
    func append(_ id: String) {
        handle.write(Data((id + "\n").utf8))
    }

    /// Every id in the logs of `directory`.
    static func all(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("acks-") }.flatMap {
            try String(contentsOfFile: directory + "/" + $0, encoding: .utf8).split(separator: "\n").map(String.init)
        }
    }
}
