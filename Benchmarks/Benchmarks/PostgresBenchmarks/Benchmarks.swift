import BehaviorKitPostgres
import Benchmark
import Commands
import Foundation
import PostgresNIO

// A durable queue on PostgreSQL: claim + run + settle of an empty command, per command, with 1,
// 2 and 4 workers (each its own journal and pool, as separate processes would be; 16 slots
// each), beside the floor: the same claim and settle statements run one by one on one
// connection per worker, each its own transaction and WAL flush (no group commit).
//
// The server is a throwaway cluster this process starts (fsync on: commits wait for the disk),
// or the one `BEHAVIORKIT_POSTGRES_URL` names. Every sample runs 1,000 commands enqueued on a
// new queue before the measurement (scalingFactor .kilo): figures read per command.

let commands = 1_000
let slots = 16

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput], scalingFactor: .kilo, maxDuration: .seconds(10), maxIterations: 8)

    // `.rateLimited`: the same run with a rate limit on the queue that never binds (a million
    // starts a second, a burst of a million), so that the figure against the plain run is what
    // checking and debiting the bucket in every claim costs.
    let generous = try? QueueRateLimit(starts: 1_000_000, per: .seconds(1), burst: 1_000_000)
    for workers in [1, 2, 4] {
        for limit in [nil, generous] {
            Benchmark("PostgresQueue.claimRunSettle.workers\(workers)\(limit == nil ? "" : ".rateLimited")") {
                benchmark in
                try await drain(benchmark, workers: workers, limit: limit)
            }
        }

        Benchmark("PostgresQueue.claimRunSettle.workers\(workers).floor") { benchmark in

            let fixture = try await Fixture.shared()
            let queue = try await fixture.fill()
            benchmark.startMeasurement()
            try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<workers {
                    group.addTask { try await fixture.floorWorker(queue, owner: "floor-\(worker)") }
                }
                let settled = try await group.reduce(0, +)
                guard settled == commands else { throw FixtureError("settled \(settled) of \(commands)") }
            }
            benchmark.stopMeasurement()
        }
    }
}

/// Drains a new queue of `commands` with `workers` workers' `runDue()`, under `limit` when one is given.
func drain(_ benchmark: Benchmark, workers: Int, limit: QueueRateLimit?) async throws {
    let fixture = try await Fixture.shared()
    let queue = try await fixture.fill()
    let journals = try await fixture.journals(workers)
    if let limit { try await CommandQueue(queue, journal: journals[0]).setRateLimit(limit) }
    benchmark.startMeasurement()
    try await withThrowingTaskGroup(of: Int.self) { group in
        for journal in journals {
            group.addTask {
                let invoker = JournaledInvoker(journal: journal, registry: Fixture.registry)
                return try await QueueWorker(CommandQueue(queue, journal: journal), invoker: invoker, slots: slots)
                    .runDue()
            }
        }
        let settled = try await group.reduce(0, +)
        guard settled == commands else { throw FixtureError("settled \(settled) of \(commands)") }
    }
    benchmark.stopMeasurement()
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The server, the journals of the workers, and a fresh queue for each sample.
actor Fixture {
    static let table = "bench_journal"
    static let registry: CommandRegistry = {
        var registry = CommandRegistry()
        registry.register("noop", arguments: Int.self) { _ in ClosureCommand("noop", execute: {}) }
        return registry
    }()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var instance: Fixture?

    static func shared() async throws -> Fixture {
        let existing = lock.withLock { instance }
        if let existing { return existing }
        let made = try await Fixture()
        return lock.withLock {
            if let instance { return instance }
            instance = made
            return made
        }
    }

    let url: String
    let cluster: PostgresTestCluster?
    let client: PostgresClient
    private var workers: [PostgresCommandJournal] = []
    private var queues = 0
    private let run: Task<Void, Never>

    init() async throws {
        if let url = ProcessInfo.processInfo.environment["BEHAVIORKIT_POSTGRES_URL"] {
            self.url = url
            cluster = nil
        } else {
            let cluster = try PostgresTestCluster(durable: true)
            atexit { Fixture.stopCluster() }
            self.cluster = cluster
            url = cluster.url(database: "postgres")
        }
        let filler = try await PostgresCommandJournal(url: url, table: Self.table)
        workers = [filler]
        let parts = URLComponents(string: url)
        let host = parts?.queryItems?.first { $0.name == "host" }?.value
        let port = Int(parts?.queryItems?.first { $0.name == "port" }?.value ?? "") ?? parts?.port ?? 5432
        let configuration: PostgresClient.Configuration =
            if let host, host.hasPrefix("/") {
                .init(
                    unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: parts?.user ?? "postgres", password: nil,
                    database: "postgres")
            } else {
                .init(
                    host: parts?.host ?? "localhost", port: port, username: parts?.user ?? "postgres",
                    password: parts?.password, database: String(parts?.path.dropFirst() ?? ""), tls: .disable)
            }
        let client = PostgresClient(configuration: configuration)
        self.client = client
        run = Task { await client.run() }
    }

    nonisolated static func stopCluster() {
        lock.withLock { instance }?.cluster?.stop()
    }

    /// `count` journals, each with its own pool (the first also fills the queues).
    func journals(_ count: Int) async throws -> [PostgresCommandJournal] {
        while workers.count < count { workers.append(try await PostgresCommandJournal(url: url, table: Self.table)) }
        return Array(workers.prefix(count))
    }

    /// Enqueues `commands` empty commands on a new queue, from 64 tasks; returns its name.
    func fill() async throws -> String {
        queues += 1
        let queue = "q\(queues)-\(UUID().uuidString.prefix(8))"
        let journal = workers[0]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<64 {
                group.addTask {
                    for index in stride(from: task, to: commands, by: 64) {
                        _ = try await CommandQueue(queue, journal: journal).enqueue(
                            kind: "noop", arguments: index, key: "\(queue)/\(index)")
                    }
                }
            }
            try await group.waitForAll()
        }
        return queue
    }

    /// The floor's worker: on one connection, claims up to `slots` records, then settles each,
    /// every statement its own transaction; returns how many it settled.
    nonisolated func floorWorker(_ queue: String, owner: String) async throws -> Int {
        let table = "\"\(Self.table)\""
        let now = "(extract(epoch FROM statement_timestamp()) * 1000)::bigint"
        return try await client.withConnection { connection in
            var settled = 0
            while true {
                let claimed = try await connection.query(
                    """
                    UPDATE \(unescaped: table) SET owner = \(owner), lease_expires_at = \(unescaped: now) + 30000,
                        attempts = attempts + 1, updated_at = \(unescaped: now)
                    WHERE key IN (
                        SELECT key FROM \(unescaped: table)
                        WHERE status = 'pending' AND parent_key IS NULL AND queue = \(queue)
                            AND lease_expires_at <= \(unescaped: now)
                        ORDER BY sequence LIMIT \(slots) FOR UPDATE SKIP LOCKED)
                    RETURNING key
                    """, logger: Logger(label: "floor")
                ).collect().map { try $0.decode(String.self) }
                if claimed.isEmpty { return settled }
                for key in claimed {
                    try await connection.query(
                        """
                        UPDATE \(unescaped: table) SET status = 'done', lease_expires_at = NULL,
                            updated_at = \(unescaped: now)
                        WHERE key = \(key) AND owner = \(owner) AND status = 'pending'
                        """, logger: Logger(label: "floor"))
                    settled += 1
                }
            }
        }
    }
}
