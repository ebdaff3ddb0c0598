import BehaviorKitSync
import Commands
import Foundation

/// The fleet crash test: worker processes share one journal and its orders queue; a driver
/// enqueues orders (three-step durable transactions), kills workers with SIGKILL at seeded
/// random moments and starts them again — and, as asked, pauses workers past their leases with
/// SIGSTOP and restarts the database — waits until every order settled, and checks that the
/// journal and the world kept every promise.
public enum Fleet {
    /// What to run.
    public struct Options: Sendable {
        /// The worker processes that serve the queue, and their kills and pauses.
        public var processes: FleetProcesses
        /// How many orders the driver enqueues.
        public var orders = 2_000
        /// The journal: a SQLite path, or a `postgres://` URL.
        public var journal: String
        /// A PostgreSQL data directory: restart that server (`pg_ctl restart -m fast`) twice
        /// mid-run, and terminate the journal's backends once. `nil`: no database faults.
        public var restartDatabase: String?
        /// The queue's flow control: limits per customer, a pause of the queue, schedules.
        public var flow = FleetFlowControl()

        /// Options for a run on `journal` by `processes` (the ledger in their folder).
        public init(journal: String, processes: FleetProcesses) {
            self.journal = journal
            self.processes = processes
        }
    }

    /// Runs the fleet; prints the counts and every violation; returns them.
    public static func run(_ options: Options, console: Console) async throws -> (FleetReport, violations: [String]) {
        let processes = options.processes
        try FileManager.default.createDirectory(atPath: processes.directory, withIntermediateDirectories: true)
        let journal = try await JournalLocation.open(options.journal)
        let ledger = try FleetLedger(path: ledgerPath(processes.directory))
        let enqueuer = JournaledInvoker(journal: journal, registry: FleetOrders.registry(ledger, worker: "driver"))
        let queue = CommandQueue(FleetOrders.queue, journal: journal)
        let pool = WorkerPool(options)
        for slot in 0..<processes.workers { try pool.start(slot) }
        let started = ContinuousClock.now
        let flow = options.flow
        let schedules = try flow.tickSchedules()
        for schedule in schedules { _ = try await journal.saveSchedule(schedule) }
        if flow.startsPerSecond > 0 {
            try await queue.setRateLimit(try QueueRateLimit(starts: flow.startsPerSecond, per: .seconds(1)))
        }
        let schedulesSaved = FleetLedger.now()
        let acknowledged = LockedValue<[String]>([])
        let enqueuing = inLanes(options.orders) { number in
            let record = try await queue.enqueue(
                FleetOrders.transaction(number, enqueuer), partition: flow.partition(ofOrder: number))
            acknowledged.withLock { $0.append(record.id) }
        }
        var random = SplitMix64(seed: processes.seed)
        var faults = DatabaseFaults(options)
        var queuePause: Task<ClosedRange<Int64>, any Error>?
        while pool.kills < processes.kills {
            try await Task.sleep(for: .milliseconds(20 + Int(random.next() % 180)))
            try await pool.strike(&random, by: processes)
            try await faults.strike(after: pool.kills, of: processes.kills, console: console)
            if flow.pausesQueue && queuePause == nil && pool.kills >= processes.kills / 3 {
                queuePause = Task { try await pauseQueue(queue, for: flow.queuePause) }
            }
        }
        try await enqueuing.value
        var pauseWindows: [ClosedRange<Int64>] = []
        if let queuePause { pauseWindows.append(try await queuePause.value) }
        let scheduleLife = try await removeSchedules(schedules, savedAt: schedulesSaved, journal)
        let settled = try await waitUntilSettled(journal, timeout: .seconds(300), console: console) {
            try pool.reviveExited()
        }
        await pool.stopAll()
        let elapsed = ContinuousClock.now - started
        var (report, violations) = try await check(
            journal, ledger, acknowledged: acknowledged.withLock { $0 }, kills: pool.killTimes, settled: settled)
        try await checkFlow(
            flow, journal, ledger, pauses: pool.pauseTimes, queuePauses: pauseWindows, schedules: schedules,
            life: scheduleLife, into: &report, &violations)
        report.databaseFaults = faults.struck
        try await pool.end(
            "fleet", &report, violations: violations, workers: processes.workers, elapsed: elapsed, console: console
        ) { try await journal.close() }
        return (report, violations)
    }

    /// Waits until no root record of `queue` is pending; returns whether that happened.
    /// `tick` runs at every look (the pool starts again the workers that exited on their own).
    ///
    /// Each look reads the queue's depth (an index of its pending records); the pending records
    /// themselves are read only when that says none is left, and every 2 s — reading them all
    /// ten times a second took a fifth of a core from the workers.
    ///
    /// Every 30 s it prints the queue's depth, so that a run that ends past its deadline shows
    /// where it stood.
    static func waitUntilSettled(
        _ journal: any CommandJournalManagement, queue: String = FleetOrders.queue, timeout: Duration,
        console: Console, tick: () throws -> Void
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        var looks = 0
        var nextReport = ContinuousClock.now
        while ContinuousClock.now < deadline {
            try tick()
            looks += 1
            let depth = try await journal.queues().first { $0.name == queue }
            let pending = depth.map { $0.due + $0.delayed + $0.running + $0.stalled } ?? 0
            if ContinuousClock.now >= nextReport {
                nextReport = ContinuousClock.now + .seconds(30)
                console.print(
                    "fleet: waiting for \(queue) to settle: \(depth?.due ?? 0) due, \(depth?.delayed ?? 0) delayed, "
                        + "\(depth?.running ?? 0) running, \(depth?.stalled ?? 0) stalled")
            }
            if pending == 0 || looks % 20 == 0 {
                let open = try await journal.unfinished().contains {
                    $0.entry.parentKey == nil && $0.queue == queue
                }
                if !open { return true }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }
}

/// The worker processes: started, killed with SIGKILL and started again, paused and resumed,
/// and started again when one exits on its own (a worker that could not open the journal while
/// the database restarted). Each slot's worker has a stable owner id ("w2"), so that a restarted
/// worker takes back at once what its killed incarnation held; each incarnation has a label of
/// its own in the ledger ("w2.5": slot 2, fifth start).
final class WorkerPool: Sendable {
    private struct State {
        var processes: [Int: ChildProcess] = [:]
        var incarnations: [Int: Int] = [:]
        var killTimes: [String: Int64] = [:]
        var paused: Set<pid_t> = []
        var pauseTimes: [String: [Int64]] = [:]
        var pauses = 0
        var revivals = 0
        var resumers: [Task<Void, Never>] = []
    }

    private let state = LockedValue(State())
    private let executable: String
    private let directory: String
    /// The command line of the worker in a slot, given its label.
    private let arguments: @Sendable (_ slot: Int, _ label: String) -> [String]

    /// A pool of `fleet --worker` processes.
    convenience init(_ options: Fleet.Options) {
        let processes = options.processes
        self.init(executable: processes.executable, directory: processes.directory) { slot, label in
            [
                "fleet", "--worker", "--owner", "w\(slot)", "--label", label, "--journal", options.journal,
                "--directory", processes.directory, "--lease-ms", "\(processes.lease.journalMilliseconds)",
                "--driver-pid", "\(getpid())",
            ] + options.flow.workerArguments
        }
    }

    /// A pool of `executable` processes run with `arguments`, logging into `directory`.
    init(
        executable: String, directory: String, arguments: @escaping @Sendable (_ slot: Int, _ label: String) -> [String]
    ) {
        self.executable = executable
        self.directory = directory
        self.arguments = arguments
    }

    var kills: Int { state.withLock { $0.killTimes.count } }
    /// When each killed incarnation died, by owner id, in milliseconds since 1970.
    var killTimes: [String: Int64] { state.withLock { $0.killTimes } }
    /// How many times a worker was paused.
    var pauses: Int { state.withLock { $0.pauses } }
    /// When each incarnation was paused, by label, in milliseconds since 1970.
    var pauseTimes: [String: [Int64]] { state.withLock { $0.pauseTimes } }
    /// How many workers exited on their own and were started again.
    var revivals: Int { state.withLock { $0.revivals } }

    func start(_ slot: Int) throws {
        let incarnation = state.withLock { state -> Int in
            state.incarnations[slot, default: 0] += 1
            return state.incarnations[slot, default: 1]
        }
        let label = "w\(slot).\(incarnation)"
        let child = try ChildProcess(executable, arguments(slot, label), log: directory + "/\(label).log")
        state.withLock { $0.processes[slot] = child }
    }

    /// Starts again every worker that exited on its own.
    func reviveExited() throws {
        let exited = state.withLock { state in
            state.processes.filter { !state.paused.contains($0.value.pid) && $0.value.poll() != nil }.map(\.key)
        }
        for slot in exited.sorted() {
            state.withLock { $0.revivals += 1 }
            try start(slot)
        }
    }

    /// Stops the worker in `slot` with SIGSTOP and resumes it with SIGCONT after `duration`,
    /// unless it is paused already.
    func pause(_ slot: Int, for duration: Duration) {
        state.withLock { state in
            guard let child = state.processes[slot], child.poll() == nil else { return }
            guard state.paused.insert(child.pid).inserted else { return }
            state.pauses += 1
            state.pauseTimes["w\(slot).\(state.incarnations[slot, default: 1])", default: []].append(FleetLedger.now())
            child.signal(SIGSTOP)
            state.resumers.append(
                Task { [self] in
                    try? await Task.sleep(for: duration)
                    resume(child)
                })
        }
    }

    private func resume(_ child: ChildProcess) {
        state.withLock { state in
            // Only a child still in the pool and paused by us: a killed one is gone.
            guard state.paused.remove(child.pid) != nil, state.processes.values.contains(where: { $0 === child })
            else { return }
            child.signal(SIGCONT)
        }
    }

    func killAndRestart(_ slot: Int) async throws {
        guard let child = state.withLock({ $0.processes[slot] }) else { return }
        let label = "w\(slot).\(state.withLock { $0.incarnations[slot, default: 1] })"
        child.signal(SIGKILL)
        _ = await child.exit()
        state.withLock {
            $0.killTimes[label] = FleetLedger.now()
            $0.paused.remove(child.pid)
        }
        try start(slot)
    }

    /// Kills every worker (a paused one too), waits for them all, then starts every slot again:
    /// a deploy of new code, with no old worker left beside the new ones.
    func redeploy() async throws {
        let children = state.withLock { state in
            state.processes.map { (slot: $0.key, child: $0.value, incarnation: state.incarnations[$0.key, default: 1]) }
        }
        for (_, child, _) in children { child.signal(SIGKILL) }
        for (slot, child, incarnation) in children {
            _ = await child.exit()
            state.withLock {
                $0.killTimes["w\(slot).\(incarnation)"] = FleetLedger.now()
                $0.paused.remove(child.pid)
            }
        }
        for slot in children.map(\.slot).sorted() { try start(slot) }
    }

    /// Kills every worker (a paused one too) and waits for it.
    func stopAll() async {
        let (children, resumers) = state.withLock { ($0.processes.values, $0.resumers) }
        resumers.forEach { $0.cancel() }
        for task in resumers { await task.value }
        for child in children { child.signal(SIGKILL) }
        for child in children { _ = await child.exit() }
    }
}
