import BehaviorKitSync
import Commands
import Foundation

/// The fleet crash test: worker processes share one journal and its orders queue; a driver
/// enqueues orders (three-step durable transactions), kills workers with SIGKILL at seeded
/// random moments and starts them again, waits until every order settled, and checks that the
/// journal and the world kept every promise.
public enum Fleet {
    /// What to run.
    public struct Options: Sendable {
        /// How many worker processes serve the queue at once.
        public var workers = 4
        /// How many orders the driver enqueues.
        public var orders = 2_000
        /// How many workers to kill, at least.
        public var kills = 50
        /// The seed of the kill moments and victims.
        public var seed: UInt64 = 1
        /// The journal: a SQLite path, or a `postgres://` URL.
        public var journal: String
        /// Where the ledger and the workers' logs go.
        public var directory: String
        /// The workers' lease: how long a dead worker's claims wait before another takes them.
        public var lease: Duration = .seconds(1)
        /// The `behaviorkit` binary, run as `fleet --worker`.
        public var executable: String

        /// Options for a run on `journal`, with the ledger in `directory`.
        public init(journal: String, directory: String, executable: String) {
            self.journal = journal
            self.directory = directory
            self.executable = executable
        }
    }

    /// Runs the fleet; prints the counts and every violation; returns them.
    public static func run(_ options: Options, console: Console) async throws -> (FleetReport, violations: [String]) {
        try FileManager.default.createDirectory(atPath: options.directory, withIntermediateDirectories: true)
        let journal = try await JournalLocation.open(options.journal)
        let ledger = try FleetLedger(path: ledgerPath(options.directory))
        let enqueuer = JournaledInvoker(journal: journal, registry: FleetOrders.registry(ledger, worker: "driver"))
        let queue = CommandQueue(FleetOrders.queue, journal: journal)
        let pool = WorkerPool(options)
        for slot in 0..<options.workers { try pool.start(slot) }
        let started = ContinuousClock.now
        let acknowledged = LockedValue<[String]>([])
        let enqueuing = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<16 {
                    group.addTask {
                        for number in stride(from: lane, to: options.orders, by: 16) {
                            let record = try await queue.enqueue(FleetOrders.transaction(number, enqueuer))
                            acknowledged.withLock { $0.append(record.id) }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        var random = SeededRandom(seed: options.seed)
        while pool.kills < options.kills {
            try await Task.sleep(for: .milliseconds(20 + Int(random.next() % 180)))
            try pool.killAndRestart(Int(random.next() % UInt64(options.workers)))
        }
        try await enqueuing.value
        let settled = try await waitUntilSettled(journal, timeout: .seconds(300))
        pool.stopAll()
        let elapsed = ContinuousClock.now - started
        let (report, violations) = try await check(
            journal, ledger, acknowledged: acknowledged.withLock { $0 }, kills: pool.killTimes, settled: settled)
        for violation in violations.prefix(20) { console.print("violation: \(violation)") }
        if violations.count > 20 { console.print("violation: … \(violations.count - 20) more") }
        try await journal.close()
        console.print(
            "fleet: \(options.workers) workers, \(report), in \(elapsed.display); \(violations.count) violations")
        return (report, violations)
    }

    /// Waits until no root record of the queue is pending; returns whether that happened.
    private static func waitUntilSettled(_ journal: any CommandJournal, timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let open = try await journal.unfinished().contains {
                $0.entry.parentKey == nil && $0.queue == FleetOrders.queue
            }
            if !open { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}

/// The worker processes: started, killed with SIGKILL and started again, each incarnation
/// under its own owner id ("w2.5": slot 2, fifth start).
final class WorkerPool: Sendable {
    private struct State {
        var processes: [Int: Process] = [:]
        var incarnations: [Int: Int] = [:]
        var killTimes: [String: Int64] = [:]
    }

    private let state = LockedValue(State())
    private let options: Fleet.Options

    init(_ options: Fleet.Options) { self.options = options }

    var kills: Int { state.withLock { $0.killTimes.count } }
    /// When each killed incarnation died, by owner id, in milliseconds since 1970.
    var killTimes: [String: Int64] { state.withLock { $0.killTimes } }

    func start(_ slot: Int) throws {
        let incarnation = state.withLock { state -> Int in
            state.incarnations[slot, default: 0] += 1
            return state.incarnations[slot, default: 1]
        }
        let owner = "w\(slot).\(incarnation)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: options.executable)
        process.arguments = [
            "fleet", "--worker", "--owner", owner, "--journal", options.journal, "--directory", options.directory,
            "--lease-ms", "\(options.lease.journalMilliseconds)",
        ]
        let log = options.directory + "/\(owner).log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        state.withLock { $0.processes[slot] = process }
    }

    func killAndRestart(_ slot: Int) throws {
        guard let process = state.withLock({ $0.processes[slot] }) else { return }
        let owner = "w\(slot).\(state.withLock { $0.incarnations[slot, default: 1] })"
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        state.withLock { $0.killTimes[owner] = FleetLedger.now() }
        try start(slot)
    }

    func stopAll() {
        let processes = state.withLock { $0.processes.values }
        for process in processes {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
