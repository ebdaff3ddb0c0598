import BehaviorKitSync
import Logging
import PostgresNIO

/// Writes whose outcome is known even when the connection is lost while they commit.
///
/// `body` runs in a transaction the journal opens (`BEGIN`), reads the transaction's id
/// (`txid_current()`) before it commits, and commits it (`COMMIT`). When the connection is lost:
/// - before `COMMIT` was sent, the server rolls the transaction back: the attempt runs again,
///   on a new connection, until the reconnection deadline;
/// - after, the outcome is unknown: the journal asks the server (`txid_status`) on a new
///   connection. Rolled back: the attempt runs again. Committed: `body`'s answer stands. Still
///   in progress (its backend has not noticed yet): the journal terminates that backend and
///   asks again. When the server cannot tell before the deadline, or restarted meanwhile (a
///   crash may reuse an id that never reached the WAL), the request fails with
///   `.outcomeUnknown`.
///
/// So `body` may run more than once, and must change nothing but through its connection: only
/// the run whose transaction committed leaves a trace. postgres-nio sends a connection's next
/// statement once the one before was answered (it does not pipeline), so each statement is a
/// round trip; the statements sent before `body`'s first query are chained on the connection,
/// without waiting for their answers (no hop to the caller's task). The journal's batch and the
/// machine store's read the id in their own statement (``Identified``): `BEGIN`, the batch,
/// `COMMIT`, three round trips.
/// Any other body has the id's query (``transactionIdentity``) sent with `BEGIN`, before it:
/// four round trips, the caller waiting on two answers (`body`'s, then `COMMIT`'s), where one
/// implicit transaction waits on one.
extension PostgresJournalConnections {
    /// What the server said about a transaction: its id, its backend, and the server's start.
    struct Transaction: Sendable {
        var id: Int64
        var backend: Int32
        var serverStarted: String
    }

    private enum Stage<T: Sendable>: Sendable {
        /// `BEGIN`, the id and `body` are under way.
        case starting
        case committing(Transaction, T)
        /// The attempt gave up on `body` before its COMMIT: it must never send one.
        case abandoned
    }

    /// The hook the journal's writer calls for each batch: runs `body` in a transaction whose
    /// outcome is resolved, as above, retried until the reconnection deadline; or, when the
    /// journal's ``PostgresCommandJournal/Reconnection/resolvesLostCommits`` is off, in one
    /// implicit transaction, tried again only when it never reached a connection.
    func withConnectionPastTheGate<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        guard reconnection.resolvesLostCommits else {
            return try await retried(idempotent: false, confirmsCommit: true, body)
        }
        return try await inResolvedTransaction(body)
    }

    /// ``withConnectionPastTheGate(_:)`` for a body that reads the transaction's identity with
    /// its own statement when asked to (``Identified``). When lost commits are not resolved, a
    /// body of more than one statement (`oneStatement` false) still runs in one transaction,
    /// `BEGIN` and `COMMIT` (or `ROLLBACK` when it refused) around it; one statement runs alone.
    ///
    /// `losable`: a one-statement body whose commit may be lost without harm (a claim: the
    /// records it took wait for their lease to run out, then any worker takes them; a write that
    /// answers the same when run again: `JournalWrite.isLosable`) runs alone in its implicit
    /// transaction, and runs again on a new connection when its connection is lost; its
    /// transaction's fate is not asked. A body that runs alone (``Run/alone``) answers once its
    /// implicit transaction committed (``ImplicitCommit``).
    func withConnectionPastTheGate<T: Sendable>(
        identified body: @escaping Identified<T>, oneStatement: Bool = true, losable: Bool = false
    ) async throws -> T {
        if losable && oneStatement {
            return try await retried(idempotent: true, mayHaveWritten: true) { connection in
                try await body(connection, .alone).value
            }
        }
        guard reconnection.resolvesLostCommits else {
            let logger = self.logger
            if oneStatement {
                return try await retried(idempotent: false) { connection in
                    try await body(connection, .alone).value
                }
            }
            return try await retried(idempotent: false) { connection in
                try await connection.runWhileOpen("BEGIN", logger: logger)
                let answer: IdentifiedAnswer<T>
                do {
                    answer = try await body(connection, .inTransaction)
                } catch {
                    await connection.rollBack(logger: logger)
                    throw error
                }
                if case .refused = answer {
                    await connection.rollBack(logger: logger)
                } else {
                    try await connection.runWhileOpen("COMMIT", logger: logger)
                }
                return answer.value
            }
        }
        return try await inResolvedTransaction(body, identifies: true)
    }

    /// A body that runs on `connection` as `run` says: when it is ``Run/identifying``, it reads
    /// the transaction's identity (``transactionIdentity``'s three columns) in the statement it
    /// runs anyway, and answers it (``identity(in:)``); or asks for the transaction to be rolled
    /// back, its answer standing (``IdentifiedAnswer``).
    typealias Identified<T: Sendable> =
        @Sendable (_ connection: PostgresConnection, _ run: Run) async throws -> IdentifiedAnswer<T>

    /// How a body (``Identified``) runs its statement.
    enum Run: Sendable, Equatable {
        /// In a transaction the journal opened, whose identity the statement reads.
        case identifying
        /// In a transaction the journal opened and commits (or its caller does).
        case inTransaction
        /// Alone, in its own implicit transaction: its answer stands only once that committed,
        /// which the body waits for (``ImplicitCommit``), after its statement.
        case alone

        var identifies: Bool { self == .identifying }
    }

    /// What a body (``Identified``) answered, and what becomes of its transaction.
    enum IdentifiedAnswer<T: Sendable>: Sendable {
        /// Its value and the transaction's identity, which its statement read: it commits.
        case identified(T, Transaction)
        /// Its value; the journal asks for the identity (a body that does not read it, or whose
        /// statement gave no row), then commits.
        case unidentified(T)
        /// Its value, which says why nothing of it may be written (the server refused it, or the
        /// body did): the transaction rolls back, and the value stands.
        case refused(T)

        var value: T {
            switch self {
            case .identified(let value, _), .unidentified(let value), .refused(let value): value
            }
        }
    }

    /// Runs `body` in a transaction whose outcome is resolved; see above.
    ///
    /// - Throws: ``PostgresStoreError``: `.unreachable` (nothing was written),
    ///   `.outcomeUnknown`, `.timedOut` (nothing was written), `.closed`; what `body` throws,
    ///   mapped, after a rollback.
    func inResolvedTransaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(PostgresStoreError) -> T {
        try await inResolvedTransaction(
            { connection, _ in .unidentified(try await body(connection)) }, identifies: false)
    }

    /// `identifies`: `body` reads the identity itself (``Identified``); else the journal asks for
    /// it before `body`, sent with `BEGIN` (chained on the connection, no hop to this task).
    private func inResolvedTransaction<T: Sendable>(
        _ body: @escaping Identified<T>, identifies: Bool
    ) async throws(PostgresStoreError) -> T {
        let loop = ReconnectLoop(clock: ContinuousClock(), policy: reconnection)
        return try await loop.run(
            { deadline throws(AttemptFailure) in
                try await self.transactionAttempt(until: deadline, body, identifies: identifies)
            },
            giveUp: { self.names.unreachable(for: self.reconnection.deadline, $0) },
            cancelled: { self.names.error(.ioFailed, $0) })
    }

    /// The transaction's id, the backend's and the server's start: the columns a body reads the
    /// identity in (``Identified``), and the query that asks for them when it does not.
    static let identityColumns = "txid_current(), pg_backend_pid(), pg_postmaster_start_time()::text"
    static let transactionIdentity = "SELECT \(identityColumns)"

    /// `sql`, a batch's call, its rows led by the transaction's identity (``identityColumns``):
    /// the statement of a body that reads the identity itself (``Identified``).
    static func identified(_ sql: String) -> String { "SELECT \(identityColumns), b.* FROM (\(sql)) AS b" }

    /// The identity in the first three columns of `row` (``identityColumns``).
    static func identity(in row: PostgresRow) throws -> Transaction {
        let cells = row.makeRandomAccess()
        return Transaction(
            id: try cells[0].decode(Int64.self), backend: try cells[1].decode(Int32.self),
            serverStarted: try cells[2].decode(String.self))
    }

    private func transactionAttempt<T: Sendable>(
        until deadline: ContinuousClock.Instant, _ body: @escaping Identified<T>, identifies: Bool
    ) async throws(AttemptFailure) -> T {
        let stage = LockedValue(Stage<T>.starting)
        let logger = self.logger
        let cause: String
        do throws(ConnectionAttemptFailure) {
            let abandon: @Sendable () -> Void = {
                stage.withLock { stage in
                    if case .committing = stage { return }
                    stage = .abandoned
                }
            }
            return try await attempt(until: deadline, onAbandon: abandon) { connection in
                // Sent now, answered before `body`'s first query is (see above): its success (and
                // the identity's row, for a body that does not read it) is noted as it comes in, on
                // the connection's event loop, so that reading it costs no hop; only its failure is
                // awaited.
                let began = LockedValue(false)
                let identity = LockedValue<PostgresRow?>(nil)
                let begun = connection.whileOpen {
                    identifies
                        ? connection.simpleQuery("BEGIN").map { _ in }
                        : connection.simpleQuery("BEGIN").and(
                            connection.simpleQuery(Self.transactionIdentity) { row in identity.withLock { $0 = row } }
                        ).map { _ in }
                }
                begun.whenSuccess { _ in began.withLock { $0 = true } }
                let value: T
                let transaction: Transaction
                do {
                    let answer = try await body(connection, identifies ? .identifying : .inTransaction)
                    value = answer.value
                    if !began.withLock({ $0 }) { _ = try await begun.get() }
                    if case .identified(_, let identified) = answer {
                        transaction = identified
                    } else if case .refused = answer {
                        // Nothing of it commits; a connection lost meanwhile rolled it back too.
                        await connection.rollBack(logger: logger)
                        return value
                    } else if let row = identity.withLock({ $0 }) {
                        transaction = try Self.identity(in: row)
                    } else {
                        let rows: [PostgresRow]
                        do {
                            rows = try await connection.whileOpen {
                                connection.query(PostgresQuery(unsafeSQL: Self.transactionIdentity), logger: logger)
                            }.get().rows
                        } catch let error where PostgresJournalWriter.sqlState(error) == "25P02" {
                            // The server refused a statement of `body`, which answered it: the
                            // transaction commits nothing, and `body`'s answer stands.
                            await connection.rollBack(logger: logger)
                            return value
                        }
                        guard let row = rows.first else {
                            throw self.names.error(.ioFailed, "txid_current() gave no row")
                        }
                        transaction = try Self.identity(in: row)
                    }
                } catch {
                    if !PostgresJournalNames.isConnectionLoss(error) {
                        await connection.rollBack(logger: logger)
                    }
                    throw error
                }
                let commits = stage.withLock { stage in
                    guard case .starting = stage else { return false }
                    stage = .committing(transaction, value)
                    return true
                }
                guard commits else { throw CancellationError() }  // abandoned: never commit
                try await connection.runWhileOpen("COMMIT", logger: logger)
                return value
            }
        } catch {
            switch error {
            case .failed(let failure): throw failure
            case .lost(let reason): cause = reason
            case .abandoned:
                guard case .committing = stage.withLock({ $0 }) else {
                    throw .final(
                        names.error(.timedOut, "the server did not answer within the deadline; nothing was written"))
                }
                throw .final(names.error(.outcomeUnknown, "the server did not answer the COMMIT within the deadline"))
            }
        }
        guard case .committing(let transaction, let value) = stage.withLock({ $0 }) else {
            throw .retry(cause)  // COMMIT was not sent: the server rolled it back
        }
        return try await resolve(transaction, value, until: deadline, cause: cause)
    }

    /// Asks the server whether `transaction` committed, until it can tell or `deadline` passes.
    func resolve<T: Sendable>(
        _ transaction: Transaction, _ value: T, until deadline: ContinuousClock.Instant, cause: String
    ) async throws(AttemptFailure) -> T {
        var backoff = ReconnectBackoff(reconnection)
        let logger = self.logger
        let unknown = { (why: String) -> AttemptFailure in
            .final(self.names.error(.outcomeUnknown, "\(cause); \(why)"))
        }
        while true {
            var why = "the server could not be asked before the deadline"
            var status: TransactionStatus?
            do throws(ConnectionAttemptFailure) {
                status = try await attempt(until: deadline) { connection in
                    try await Self.status(of: transaction, on: connection, logger: logger)
                }
            } catch {
                switch error {
                case .failed(.final(let error)): throw unknown("cannot ask the server: \(error.reason)")
                case .failed(.retry(let reason)), .failed(.outOfTime(let reason)), .lost(let reason): why = reason
                case .abandoned: throw unknown("the server did not answer in time")
                }
            }
            if let status {
                switch status.state {
                case "committed"? where status.serverStarted == transaction.serverStarted:
                    logger.debug("a lost COMMIT had committed", metadata: ["transaction": "\(transaction.id)"])
                    return value
                case "committed"?:
                    throw unknown(
                        "transaction \(transaction.id) is marked committed, but the server restarted meanwhile")
                case "aborted"?:
                    throw .retry("\(cause); the transaction was rolled back")
                case "in progress"?:
                    why = "transaction \(transaction.id) was still in progress"
                default:
                    throw unknown("the server no longer knows transaction \(transaction.id)")
                }
            }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw unknown(why) }
            do {
                let clock = ContinuousClock()
                try await Self.sleep(until: clock.now.advanced(by: min(backoff.next(), left)), on: clock)
            } catch {
                throw unknown("cancelled")
            }
        }
    }

    /// What the server says of a transaction, and when it started.
    struct TransactionStatus: Sendable {
        /// `committed`, `aborted`, `in progress`, or `nil` when the server no longer knows.
        var state: String?
        var serverStarted: String
    }

    /// Asks the server whether `transaction` committed (an id it never handed out was not);
    /// terminates its backend when it is still in progress on the same server, so that it ends.
    static func status(
        of transaction: Transaction, on connection: PostgresConnection, logger: Logger
    ) async throws -> TransactionStatus {
        let id = transaction.id
        let rows = try await connection.rowsWhileOpen(
            """
            SELECT CASE WHEN \(id)::bigint >= txid_snapshot_xmax(txid_current_snapshot()) THEN 'aborted' \
            ELSE txid_status(\(id)::bigint) END, pg_postmaster_start_time()::text
            """, logger: logger
        )
        guard let row = rows.first else { return TransactionStatus(state: nil, serverStarted: "") }
        let (state, started) = try row.decode((String?, String).self)
        if state == "in progress", started == transaction.serverStarted {
            let backend = transaction.backend
            _ = try? await connection.rowsWhileOpen("SELECT pg_terminate_backend(\(backend))", logger: logger)
        }
        return TransactionStatus(state: state, serverStarted: started)
    }
}
