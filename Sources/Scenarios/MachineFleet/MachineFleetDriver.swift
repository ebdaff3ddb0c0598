import BehaviorKitSync
import Commands
import DurableMachines
import Foundation
import GRDB

/// The durable-machine fleet test: worker processes share one machine store; each starts its
/// share of the parcels and sends their events (with ids), and fires timers and runs effects
/// for all; the driver sends some events again from its own process, kills workers with
/// SIGKILL and pauses them past their leases, waits until every parcel's lifecycle ended, and
/// replays every history against the definition.
public enum MachineFleet {
    /// What to run.
    public struct Options: Sendable {
        /// The worker processes (the seed plans their parcels too), their kills and pauses; the
        /// lease is the effects'.
        public var processes: FleetProcesses
        /// How many parcels (keys).
        public var keys = 1_000
        /// The store: a SQLite path, or a `postgres://` URL.
        public var store: String

        /// Options for a run on `store` by `processes` (the acknowledgement logs in their folder).
        public init(store: String, processes: FleetProcesses) {
            self.store = store
            self.processes = processes
        }
    }

    /// Runs the fleet; prints the counts and every violation; returns them.
    public static func run(_ options: Options, console: Console) async throws -> (MachineFleetReport, [String]) {
        let processes = options.processes
        try FileManager.default.createDirectory(atPath: processes.directory, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: processes.directory)
        where file.hasPrefix("acks-") {
            try FileManager.default.removeItem(atPath: processes.directory + "/" + file)
        }
        let durable = try await DurableLocation.open(options.store)
        let parcels = ParcelLifecycle.machine(durable.machines, journal: durable.journal)
        let pool = WorkerPool(executable: processes.executable, directory: processes.directory) { slot, label in
            [
                "machine-fleet", "--worker", "--slot", "\(slot)", "--workers", "\(processes.workers)",
                "--label", label, "--store", options.store, "--directory", processes.directory,
                "--keys", "\(options.keys)", "--seed", "\(processes.seed)",
                "--lease-ms", "\(processes.lease.journalMilliseconds)", "--driver-pid", "\(getpid())",
            ]
        }
        for slot in 0..<processes.workers { try pool.start(slot) }
        let started = ContinuousClock.now
        // The driver sends a tenth of the parcels' events again, from its own process.
        let acknowledged = LockedValue<Set<String>>([])
        let resending = Task {
            var random = SplitMix64(seed: processes.seed &+ 7)
            for number in 0..<options.keys where random.next() % 10 == 0 {
                for (id, event) in ParcelLifecycle.plan(number, seed: processes.seed) {
                    do {
                        try await parcels.send(event, to: ParcelLifecycle.key(number), id: id)
                        acknowledged.withLock { _ = $0.insert(id) }
                    } catch DurableMachineError.notStarted {
                        break
                    }
                }
            }
        }
        var random = SplitMix64(seed: processes.seed)
        while pool.kills < processes.kills {
            try await Task.sleep(for: .milliseconds(50 + Int(random.next() % 250)))
            try await pool.strike(&random, by: processes)
        }
        try await resending.value
        let settled = try await waitUntilSettled(
            parcels, journal: durable.journal, keys: options.keys, timeout: .seconds(300)
        ) {
            try pool.reviveExited()
        }
        await pool.stopAll()
        let elapsed = ContinuousClock.now - started
        let acks = try acknowledged.withLock { $0 }.union(AcknowledgementLog.all(in: processes.directory))
        var (report, violations) = try await check(parcels, keys: options.keys, acknowledged: acks)
        let deliveries = try await checkDeliveries(parcels, journal: durable.journal, keys: options.keys)
        report.deliveryCommands = deliveries.ran
        violations += deliveries.violations
        if !settled { violations.insert("the parcels did not all settle within 300 s", at: 0) }
        violations += try await integrity(of: options.store)
        try await pool.end(
            "machine fleet", &report, violations: violations, workers: processes.workers, elapsed: elapsed,
            console: console
        ) { try await durable.close() }
        return (report, violations)
    }

    /// Waits until every parcel started and its lifecycle ended (so no timer or effect is left
    /// but in ended states), and every delivery's command is in the journal and settled; whether
    /// that happened in time.
    private static func waitUntilSettled(
        _ parcels: DurableMachine<ParcelState, ParcelEvent, Parcel>, journal: any CommandJournal, keys: Int,
        timeout: Duration, tick: () throws -> Void
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            try tick()
            let counts = try await parcels.countsByState()
            let ended = counts.filter { ParcelState(rawValue: $0.key)?.isFinal == true }.values.reduce(0, +)
            if ended == keys && counts.values.reduce(0, +) == keys, try await journal.unfinished().isEmpty,
                try await journal.allRecords().count >= counts["\(ParcelState.delivered)", default: 0]
            {
                return true
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// SQLite's own integrity check of a store file (PostgreSQL's is run by CI: pg_amcheck).
    private static func integrity(of location: String) async throws -> [String] {
        guard !JournalLocation.isServerURL(location) else { return [] }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: location, configuration: configuration)
        defer { try? queue.close() }
        let result = try await queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        return result == ["ok"] ? [] : ["store integrity: \(result.prefix(3))"]
    }
}
