import BehaviorKitSync
public import Commands
public import Logging
public import PostgresNIO

/// A durable `CommandJournal` on PostgreSQL, shared by workers on any number of machines:
/// every claim, lease and settlement is atomic on the server, claims skip the rows other
/// workers are taking (`FOR UPDATE SKIP LOCKED`), and leases are judged by the server's clock.
///
/// ```swift
/// let journal = try await PostgresCommandJournal(url: "postgres://app:secret@db.internal/orders")
/// let invoker = JournaledInvoker(journal: journal, registry: registry)
/// try await invoker.perform(Charge(order: 42, cents: 990), key: "order-42/charge")
///
/// let payments = CommandQueue("payments", journal: journal, concurrency: 8)
/// try await payments.enqueue(Charge(order: 43, cents: 450), key: "order-43/charge")
/// let worker = Task { await QueueWorker(payments, invoker: invoker, slots: 16).run() }
/// …
/// worker.cancel()
/// await journal.close()  // waits for the writes under way, then closes the connections
/// ```
///
/// Opening creates the table (with its indexes, and the PL/pgSQL function that applies a batch
/// of writes) when it is missing, under an advisory lock so that processes starting together
/// create it once; a table of that name that is not a journal is refused with
/// ``PostgresStoreError`` naming it, and left as it is.
///
/// Writes arriving together from many tasks go to the server as one call of that function on
/// one pooled connection (group commit): one round trip, one transaction and one WAL flush for
/// the lot; each caller is answered once its write committed. A caller's conflict, lost lease
/// or refused value is its own answer and never undoes the others' writes. Claims never wait
/// on each other; with a `concurrency`, claimers of the queue take its advisory lock first, so
/// that the limit holds across every process.
/// Reads use the other connections of the pool (a `PostgresClient` the journal runs and
/// ``close()`` stops).
public final class PostgresCommandJournal: CommandJournalManagement, JournalWriting, QueueWakeSource,
    JobSettlementSource
{
    /// The table a journal uses unless told otherwise.
    public static let defaultTable = "behaviorkit_command_journal"

    /// The journal's table.
    public let table: String
    /// Where the server is: `host:port`, or the Unix socket's path.
    public let server: String
    /// The database the table is in.
    public let database: String

    let connections: PostgresJournalConnections
    let writer: PostgresJournalWriter
    let writes: GroupCommit<JournalWrite, JournalWriteOutcome>
    /// The typed writes: each validated, past the gate ``close()`` shuts, in the group commit.
    package let channel: JournalWriteChannel
    /// Listens for the queue notifications of every process, from the first ``wakeups(of:)``.
    let listener: PostgresQueueListener
    /// Wakes this process's callers waiting on records another process settled.
    let settlementWatcher: PostgresSettlementWatcher

    /// Opens the journal at a libpq-style URL, creating its table when it is missing.
    ///
    /// ```swift
    /// try await PostgresCommandJournal(url: "postgres://app:secret@db.internal:5432/orders?sslmode=require")
    /// try await PostgresCommandJournal(url: "postgres://app@/orders?host=/var/run/postgresql")  // Unix socket
    /// ```
    ///
    /// The URL takes `user`, `password`, `host`, `port`, `dbname`, `sslmode` (libpq's modes;
    /// only `verify-ca` and `verify-full` check the certificate), `connect_timeout` (seconds)
    /// and `application_name`, in its parts or as parameters. A host that is a folder names
    /// the folder of the server's Unix socket. No user means the system user; no database
    /// means the user's name.
    ///
    /// - Parameters:
    ///   - url: where the server is, who connects, and the database, as above.
    ///   - table: the table's name: letters, digits and `_`, at most 48, not starting with a
    ///     digit. Several journals can live in one database under different names.
    ///   - clock: the calendar time leases are judged by and records stamped with; `nil` (the
    ///     default) means the server's clock, so that workers on machines whose clocks
    ///     disagree still agree on leases. Give one (a `ManualClock`) in tests.
    ///   - reconnection: how each request rides out a server that restarts or goes away for a
    ///     while: tried again until a deadline, 30 seconds unless told otherwise (the URL's
    ///     `reconnect_timeout`, in seconds, sets it too). See ``Reconnection``.
    ///   - logger: where the journal logs (its opening at `debug`, a failed commit at `error`,
    ///     postgres-nio's queries at `debug` and `trace`), with `journal` metadata naming the
    ///     server, database and table; `nil` logs nothing.
    /// - Throws: ``PostgresStoreError``: `.invalidURL`, `.invalidTableName`,
    ///   `.cannotConnect`, `.authenticationFailed`, `.notAJournal`, `.queryFailed`. Opening does
    ///   not wait for a server that cannot be reached.
    public convenience init(
        url: String, table: String = PostgresCommandJournal.defaultTable, clock: (any WallClock)? = nil,
        reconnection: Reconnection = Reconnection(), logger: Logger? = nil
    ) async throws(PostgresStoreError) {
        let endpoint = try PostgresJournalEndpoint(url: url, table: table)
        var reconnection = reconnection
        if let timeout = endpoint.reconnectTimeout { reconnection.deadline = timeout }
        try await self.init(endpoint: endpoint, table: table, clock: clock, reconnection: reconnection, logger: logger)
    }

    /// Opens the journal on the server `configuration` describes, creating its table when it
    /// is missing; see ``init(url:table:clock:reconnection:logger:)``.
    ///
    /// ```swift
    /// var configuration = PostgresClient.Configuration(
    ///     host: "db.internal", username: "app", password: secret, database: "orders", tls: .disable)
    /// configuration.options.maximumConnections = 4
    /// let journal = try await PostgresCommandJournal(configuration: configuration)
    /// ```
    public convenience init(
        configuration: PostgresClient.Configuration, table: String = PostgresCommandJournal.defaultTable,
        clock: (any WallClock)? = nil, reconnection: Reconnection = Reconnection(), logger: Logger? = nil
    ) async throws(PostgresStoreError) {
        try await self.init(
            endpoint: PostgresJournalEndpoint(configuration: configuration), table: table, clock: clock,
            reconnection: reconnection, logger: logger)
    }

    convenience init(
        endpoint: PostgresJournalEndpoint, table: String, clock: (any WallClock)?, reconnection: Reconnection,
        logger: Logger?
    ) async throws(PostgresStoreError) {
        let names = PostgresJournalNames(server: endpoint.server, database: endpoint.database, table: table)
        try Self.validate(table: table, names)
        let connections = PostgresJournalConnections(
            configuration: endpoint.configuration, names: names, reconnection: reconnection, logger: logger)
        do {
            try await Self.prepare(table, on: connections)
        } catch {
            await connections.close()
            throw error
        }
        self.init(connections: connections, endpoint: endpoint, table: table, clock: clock)
    }

    /// Creates the journal's table on the server of `connections` when it is missing, or checks
    /// the one there.
    static func prepare(
        _ table: String, on connections: PostgresJournalConnections
    ) async throws(PostgresStoreError) {
        let names = connections.names
        let logger = connections.logger
        try await connections.withFirstConnection { connection in
            try await PostgresJournalSchema.prepare(table, on: connection, names: names, logger: logger)
        }
    }

    /// The journal on `connections`, its table prepared (a ``PostgresStore``'s view, or the
    /// journal's own pool).
    init(
        connections: PostgresJournalConnections, endpoint: PostgresJournalEndpoint, table: String,
        clock: (any WallClock)?
    ) {
        let names = connections.names
        let writer = PostgresJournalWriter(
            statements: PostgresJournalStatements(PostgresJournalSQL(table: table)), names: names, clock: clock,
            logger: connections.logger)
        self.table = table
        self.server = endpoint.server
        self.database = endpoint.database
        self.connections = connections
        self.writer = writer
        // A write that finds nothing committing is committed by its caller's task, which it then
        // does not follow into cancellation (`ignoresCancellation`), as the group commit's own
        // task never is cancelled: one hop less each way. Two batches at once, each on its own
        // connection: the server runs them side by side, where one backend ran every batch of the
        // process in turn. Renewals, claims and prunes, which lock many records (and a claim its
        // queue's, partitions' and rate limits' locks) that the process's other writes may lock too,
        // in another order (a deadlock waits a second to be found), commit with no batch beside them.
        let writes = GroupCommit<JournalWrite, JournalWriteOutcome>(
            maximumBatch: 256, commitsLoneWritesInCaller: true, maximumInFlight: 2,
            runsAlone: { write in
                switch write {
                case .renew, .claim, .prune: true
                default: false
                }
            }
        ) { writes in
            await PostgresJournalConnections.$ignoresCancellation.withValue(true) {
                await writer.commit(writes, connections)
            }
        }
        self.writes = writes
        self.channel = JournalWriteChannel(
            unexpected: { names.error(.ioFailed, "a write gave back an unexpected answer") },
            submit: { write in
                try Self.admit(write, writer, names)
                try connections.enter()
                defer { connections.leave() }
                return try await writes.submit(write)
            },
            submitAll: { batch in
                do {
                    try connections.enter()
                } catch {
                    return batch.map { _ in .failure(error) }
                }
                defer { connections.leave() }
                // A write the table cannot hold is refused alone; the others go in whole batches.
                var answers: [Result<JournalWriteOutcome, any Error>] = []
                var valid: [(index: Int, write: JournalWrite)] = []
                for (index, write) in batch.enumerated() {
                    do throws(PostgresStoreError) {
                        try Self.admit(write, writer, names)
                        valid.append((index, write))
                        answers.append(.failure(names.error(.ioFailed, "a write went unanswered")))
                    } catch {
                        answers.append(.failure(error))
                    }
                }
                for (place, result) in zip(valid, await writes.submitAll(valid.map(\.write))) {
                    answers[place.index] = result
                }
                return answers
            })
        self.listener = PostgresQueueListener(connections: connections, table: table, signal: channel.queueSignal)
        let settledKeys = "SELECT key FROM \"\(table)\" WHERE key = ANY($1::text[]) AND status <> 'pending'"
        self.settlementWatcher = PostgresSettlementWatcher(
            settled: channel.settlementSignal, logger: connections.logger
        ) { keys in
            try await connections.withConnection { connection in
                var bindings = PostgresBindings(capacity: 1)
                bindings.append(keys)
                return try await connection.rowsWhileOpen(
                    PostgresQuery(unsafeSQL: settledKeys, binds: bindings), logger: connections.logger
                ).map { try $0.decode(String.self) }
            }
        }
        connections.logger.debug("journal opened")
    }

    /// Refuses, before the group commit sees it, a write the table cannot hold (`writer`'s
    /// checks) or one that is not the batch function's (a management write has a transaction of its own).
    private static func admit(
        _ write: JournalWrite, _ writer: PostgresJournalWriter, _ names: PostgresJournalNames
    ) throws(PostgresStoreError) {
        try writer.validate(write)
        guard write.isBatched else {
            throw names.error(.queryFailed, "a management write runs in a transaction of its own")
        }
    }

    /// Wakes on each record of `queue` that became claimable, in any process: the first call
    /// holds one connection of the pool to listen for the table's notifications, until
    /// ``close()``; see `QueueWakeSource` (Commands).
    public func wakeups(of queue: String) -> AsyncStream<Void> {
        listener.start()
        return channel.queueSignal.wakeups(of: queue)
    }

    /// Wakes on each settlement or cancellation of the record `key` through this journal, and,
    /// within a few milliseconds, when any process settled it: while someone waits, one query
    /// every 10 ms reads which of the records waited on settled. See `JobSettlementSource`
    /// (Commands).
    public func settlements(of key: String) -> AsyncStream<Void> {
        settlementWatcher.start()
        return channel.settlementSignal.wakeups(of: key)
    }

    /// Waits for the writes under way (every caller is answered), then closes the pool's
    /// connections. Requests made after it throw `.closed`. Call it before the process exits
    /// or the journal is dropped; calling it again does nothing more.
    public func close() async {
        await listener.stop()
        await settlementWatcher.stop()
        channel.queueSignal.finish()
        channel.settlementSignal.finish()
        await connections.close()
    }

    static func validate(table: String, _ names: PostgresJournalNames) throws(PostgresStoreError) {
        let letters = table.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
        guard letters, let first = table.unicodeScalars.first, !("0"..."9").contains(first), table.count <= 48 else {
            throw names.error(
                .invalidTableName,
                "'\(table)' is not a table name: use 1 to 48 letters, digits and _, not starting with a digit")
        }
    }
}
