import BehaviorKitSync
import Logging
import PostgresNIO

/// The journal's connections: pooled (``PostgresJournalPools``), every request bounded by the
/// reconnection deadline and tried again on a new connection when the server went away
/// (``PostgresCommandJournal/Reconnection``), and a gate that `close()` shuts and waits on.
final class PostgresJournalConnections: Sendable {
    /// Whether the requests run by this task ignore its cancellation, as those of a task that is
    /// never cancelled: the journal's writes, which a caller's own task commits when nothing else
    /// commits (a batch of one, no hop to the group commit's task and back), and which must then
    /// end as they would in that task, committed and answered, or refused.
    @TaskLocal static var ignoresCancellation = false

    /// Sleeps on `clock` until `wake`: when this task ``ignoresCancellation``, in a task of its
    /// own, which the caller's cancellation does not reach; otherwise throws once it is cancelled.
    static func sleep<C: Clock>(until wake: C.Instant, on clock: C) async throws {
        if ignoresCancellation {
            try await Task { try await clock.sleep(until: wake, tolerance: nil) }.value
        } else {
            try await clock.sleep(until: wake, tolerance: nil)
        }
    }

    private struct Gate {
        var open = true
        var inFlight = 0
        var drained: [CheckedContinuation<Void, Never>] = []
    }

    let names: PostgresJournalNames
    /// The journal's logger (the user's, tagged with the journal), or one that logs nothing.
    let logger: Logger
    let reconnection: PostgresCommandJournal.Reconnection
    let pools: PostgresJournalPools
    /// Shared with the other views of a ``PostgresStore``: closing one closes them all.
    private let gate: LockedValue<Gate>
    /// How long opening waits for its first connection.
    let openTimeout: Duration
    /// Watches every request under way for its deadline and its stalled connection.
    let watchdog: RequestWatchdog

    init(
        configuration: PostgresClient.Configuration, names: PostgresJournalNames,
        reconnection: PostgresCommandJournal.Reconnection, logger: Logger?
    ) {
        var logger = logger ?? Logger(label: "BehaviorKitPostgres") { _ in SwiftLogNoOpLogHandler() }
        logger[metadataKey: "journal"] = "\(names.server)/\(names.database)/\(names.table)"
        self.logger = logger
        self.names = names
        self.reconnection = reconnection
        self.pools = PostgresJournalPools(configuration: configuration)
        self.gate = LockedValue(Gate())
        self.openTimeout = configuration.options.connectTimeout + .seconds(5)
        self.watchdog = RequestWatchdog()
    }

    /// The same pools and gate seen as another view of one store (its errors and logs name
    /// `names`): one pool for the store, and closing either view closes both.
    init(sharing other: PostgresJournalConnections, names: PostgresJournalNames, logger: Logger?) {
        var logger = logger ?? Logger(label: "BehaviorKitPostgres") { _ in SwiftLogNoOpLogHandler() }
        logger[metadataKey: "journal"] = "\(names.server)/\(names.database)/\(names.table)"
        self.logger = logger
        self.names = names
        self.reconnection = other.reconnection
        self.pools = other.pools
        self.gate = other.gate
        self.openTimeout = other.openTimeout
        self.watchdog = other.watchdog
    }

    /// Runs `body` on a pooled connection, as one request of the journal; when the connection is
    /// lost or the server cannot be reached, runs it again on a new connection until the
    /// reconnection deadline. For requests that can run twice: reads.
    ///
    /// `writes`: `body` writes in its last statement's implicit transaction (outside `BEGIN`):
    /// the request answers once that committed (``ImplicitCommit``), and runs again when it
    /// could not be told.
    ///
    /// - Throws: ``PostgresStoreError``: `.closed` after ``close()``, `.unreachable`
    ///   once the deadline passed, `.authenticationFailed` or `.cannotConnect` when the server
    ///   refused the connection for good, `.timedOut` when no connection was free or the server
    ///   did not answer in time; and what `body` throws, mapped.
    func withConnection<T: Sendable>(
        writes: Bool = false, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try enter()
        defer { leave() }
        return try await retried(mayHaveWritten: writes, confirmsCommit: writes, body)
    }

    /// ``withConnection(_:)`` without passing the gate, for requests that passed it already.
    ///
    /// - Parameter idempotent: whether `body` may run again after its connection was lost while
    ///   it ran; when not, that loss fails the request with `.outcomeUnknown`, and only the
    ///   attempts that never reached `body` (no connection) are tried again.
    /// - Parameter mayHaveWritten: `body` may have written when its answer did not come in time:
    ///   giving up then is `.outcomeUnknown`, not `.timedOut` (nothing was written).
    /// - Parameter confirmsCommit: `body`'s last statement wrote in its implicit transaction:
    ///   `body`'s answer stands once that committed (``ImplicitCommit``); when it could not be
    ///   told, the connection counts as lost.
    func retried<T: Sendable>(
        idempotent: Bool = true, mayHaveWritten: Bool = false, confirmsCommit: Bool = false,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(PostgresStoreError) -> T {
        let loop = ReconnectLoop(clock: ContinuousClock(), policy: reconnection)
        let logger = self.logger
        let run: @Sendable (PostgresConnection) async throws -> T = { connection in
            let value = try await body(connection)
            if confirmsCommit { try await ImplicitCommit.confirm(on: connection, logger: logger) }
            return value
        }
        return try await loop.run(
            { deadline throws(AttemptFailure) in
                do throws(ConnectionAttemptFailure) {
                    return try await self.attempt(until: deadline, run)
                } catch {
                    switch error {
                    case .lost(let reason):
                        guard idempotent else { throw .final(self.names.error(.outcomeUnknown, reason)) }
                        throw .retry(reason)
                    case .abandoned:
                        let reason = "the server did not answer within the deadline"
                        throw .final(
                            self.names.error(idempotent && !mayHaveWritten ? .timedOut : .outcomeUnknown, reason))
                    case .failed(let failure): throw failure
                    }
                }
            },
            giveUp: { self.names.unreachable(for: self.reconnection.deadline, $0) },
            cancelled: { self.names.error(.ioFailed, $0) })
    }

    /// Runs `body` on the first connection, as opening does: no waiting when the server
    /// cannot be reached, so that a wrong URL fails at once.
    func withFirstConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(PostgresStoreError) -> T {
        try enter()
        defer { leave() }
        do throws(ConnectionAttemptFailure) {
            return try await attempt(until: .now.advanced(by: openTimeout), failFast: true, body)
        } catch {
            switch error {
            case .lost(let reason): throw names.error(.ioFailed, reason)
            case .abandoned:
                throw names.error(.timedOut, "no answer within \(PostgresJournalNames.seconds(openTimeout))")
            case .failed(.final(let error)): throw error
            case .failed(.retry(let reason)), .failed(.outOfTime(let reason)):
                throw names.error(.cannotConnect, reason)
            }
        }
    }

    /// Refuses new requests, waits for those under way (a group commit's batch among them), and
    /// stops the pools. Calling it again does nothing more.
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
        await pools.close()
    }

    var isClosed: Bool { gate.withLock { !$0.open } }

    func enter() throws(PostgresStoreError) {
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
}
