import BehaviorKitSync
import Logging
import PostgresNIO

/// The journal's connections: a `PostgresClient` pool run in a task the journal owns, leases
/// that fail at once when the pool cannot connect (postgres-nio's pool would retry forever),
/// and a gate that `close()` shuts and waits on.
final class PostgresJournalConnections: Sendable {
    private struct Gate {
        var open = true
        var inFlight = 0
        var drained: [CheckedContinuation<Void, Never>] = []
    }

    let client: PostgresClient
    let names: PostgresJournalNames
    let logger = Logger(label: "BehaviorKitPostgres") { _ in SwiftLogNoOpLogHandler() }
    private let failures: ConnectFailureLog
    private let runTask: Task<Void, Never>
    private let gate = LockedValue(Gate())
    /// How long a request waits for a connection before it fails.
    private let leaseTimeout: Duration

    init(configuration: PostgresClient.Configuration, names: PostgresJournalNames) {
        let failures = ConnectFailureLog()
        let client = PostgresClient(configuration: configuration, backgroundLogger: failures.logger)
        self.client = client
        self.names = names
        self.failures = failures
        self.leaseTimeout = configuration.options.connectTimeout + .seconds(5)
        self.runTask = Task { await client.run() }
    }

    deinit { runTask.cancel() }

    /// Runs `body` on a pooled connection, as one request of the journal.
    ///
    /// - Throws: ``PostgresCommandJournalError``: `.closed` after ``close()``, `.cannotConnect` or
    ///   `.authenticationFailed` as soon as the pool fails to connect, `.timedOut` when no
    ///   connection was free in time; and what `body` throws, mapped.
    func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try enter()
        defer { leave() }
        return try await withConnectionPastTheGate(body)
    }

    /// Runs `body` on a pooled connection without passing the gate: for the batches of
    /// requests that passed it already, which ``close()`` waits for.
    func withConnectionPastTheGate<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        do {
            return try await lease(body)
        } catch {
            throw names.error(error)
        }
    }

    /// Refuses new requests, waits for those under way (a group commit's batch among them), and
    /// stops the pool. Calling it again does nothing more.
    func close() async {
        await withCheckedContinuation { continuation in
            let now = gate.withLock { gate -> Bool in
                gate.open = false
                if gate.inFlight == 0 { return true }
                gate.drained.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
        runTask.cancel()
        await runTask.value
    }

    func enter() throws(PostgresCommandJournalError) {
        let open = gate.withLock { gate -> Bool in
            guard gate.open else { return false }
            gate.inFlight += 1
            return true
        }
        guard open else { throw names.error(.closed, "close() was called; open a new journal to go on") }
    }

    func leave() {
        let drained = gate.withLock { gate -> [CheckedContinuation<Void, Never>] in
            gate.inFlight -= 1
            guard gate.inFlight == 0, !gate.open else { return [] }
            defer { gate.drained = [] }
            return gate.drained
        }
        drained.forEach { $0.resume() }
    }

    private enum Outcome<T: Sendable>: Sendable {
        case value(T)
        case leased
    }

    /// Leases a connection for `body`, racing the lease against the pool's connect failures
    /// and the lease timeout; once leased, `body` runs to its end.
    private func lease<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let started = ContinuousClock.now
        let leased = LockedValue(false)
        let client = self.client
        return try await withThrowingTaskGroup(of: Outcome<T>.self) { group in
            group.addTask {
                .value(
                    try await client.withConnection { connection in
                        leased.withLock { $0 = true }
                        return try await body(connection)
                    })
            }
            group.addTask { try await self.watch(leased, since: started) }
            while let outcome = try await group.next() {
                if case .value(let value) = outcome {
                    group.cancelAll()
                    return value
                }
            }
            throw names.error(.ioFailed, "the connection pool answered nothing")
        }
    }

    /// Returns once `leased`; throws when the pool logs a failed connection attempt first, or
    /// when the lease timeout passes.
    private func watch<T: Sendable>(
        _ leased: LockedValue<Bool>, since started: ContinuousClock.Instant
    ) async throws -> Outcome<T> {
        var interval = Duration.milliseconds(2)
        while !leased.withLock({ $0 }) {
            if let failure = failures.failure(since: started) { throw names.connectError(failure.description) }
            if ContinuousClock.now - started > leaseTimeout {
                throw names.error(.timedOut, "no connection was free within \(leaseTimeout)")
            }
            try await Task.sleep(for: interval)
            interval = min(interval * 2, .milliseconds(50))
        }
        return .leased
    }
}
