import BehaviorKitSync
public import Commands
public import DurableMachines
public import Logging
public import PostgresNIO

/// A `MachineStore` on PostgreSQL, shared by the processes of a fleet: durable machines whose
/// instances, history, timers and effects live in five tables beside the command journal, on the
/// journal's connections (pooled, every request bounded by a deadline, ridden across restarts of
/// the server).
///
/// ```swift
/// let store = try await PostgresMachineStore(url: "postgres://app:secret@db.internal/orders")
/// let orders = DurableMachine("order", definition: orderLifecycle, store: store)
/// try await orders.start("order-42", context: Order(total: 990))
/// try await orders.send(.pay, to: "order-42", id: "payment-7")
/// …
/// await store.close()  // waits for the commits under way, then closes the connections
/// ```
///
/// Opening creates the tables `<prefix>_instance`, `_state`, `_step`, `_timer` and `_effect`
/// (with their indexes, and the PL/pgSQL function that applies a batch of commits) when they are
/// missing, under an advisory lock so that processes starting together create them once; a
/// table of one of those names that is not the store's is refused with
/// ``PostgresStoreError`` naming it, and left as it is.
///
/// A commit is one call of that function: the version check (the instance's row locked, so
/// that commits of one key run one at a time on every connection of every process), the
/// duplicate event id check, and every write of the step, in one transaction. Commits arriving
/// together from many tasks go to the server as one call (group commit), sorted by key so that
/// two batches never wait on each other in a cycle. Connections run at READ COMMITTED whatever
/// the database's default, so that a commit that lost a race is a `.versionConflict`, never a
/// serialization failure; a deadlock the server reports anyway runs the batch again.
/// Effects are claimed with `FOR UPDATE SKIP LOCKED`; renewing and finishing one checks its
/// owner and its attempts, its fencing token.
public final class PostgresMachineStore: MachineStore {
    /// How the store rides out a server that restarts or goes away: the journal's policy.
    public typealias Reconnection = PostgresCommandJournal.Reconnection

    /// The prefix of the tables a store uses unless told otherwise.
    public static let defaultTablePrefix = "behaviorkit_machine"

    /// The prefix of the store's tables.
    public let tablePrefix: String
    /// Where the server is: `host:port`, or the Unix socket's path.
    public let server: String
    /// The database the tables are in.
    public let database: String

    let connections: PostgresJournalConnections
    let sql: PostgresMachineSQL
    let committer: PostgresMachineCommitter
    /// The journal of a ``PostgresStore``'s other view (``enqueuesCommands(on:)``), or `nil`.
    let sharedJournal: PostgresCommandJournal?
    let commits: GroupCommit<MachineCommit, MachineCommitResult>

    /// Opens the store at a libpq-style URL, creating its tables when they are missing.
    ///
    /// ```swift
    /// try await PostgresMachineStore(url: "postgres://app:secret@db.internal:5432/orders?sslmode=require")
    /// try await PostgresMachineStore(url: "postgres://app@/orders?host=/var/run/postgresql")  // Unix socket
    /// ```
    ///
    /// The URL reads as `PostgresCommandJournal`'s: `user`, `password`, `host`, `port`,
    /// `dbname`, `sslmode`, `connect_timeout`, `application_name` and `reconnect_timeout`.
    ///
    /// - Parameters:
    ///   - url: where the server is, who connects, and the database.
    ///   - tablePrefix: the start of the tables' names: letters, digits and `_`, at most 48, not
    ///     starting with a digit. Several stores can live in one database under different
    ///     prefixes; one store holds any number of machines.
    ///   - reconnection: how each request rides out a server that restarts or goes away for a
    ///     while: tried again until a deadline, 30 seconds unless told otherwise (the URL's
    ///     `reconnect_timeout` sets it too). A commit whose connection was lost while it
    ///     committed is resolved with `txid_status` unless `resolvesLostCommits` is off.
    ///   - logger: where the store logs (its opening at `debug`, a failed commit at `error`),
    ///     with `journal` metadata naming the server, database and prefix; `nil` logs nothing.
    /// The store's connections ask, at connect, for READ COMMITTED transactions and for the
    /// server to end a session idle in a transaction for longer than the request timeout
    /// (`default_transaction_isolation`, `idle_in_transaction_session_timeout`). A pooler
    /// between the store and the server must pass them on (PgBouncer refuses them unless told
    /// to ignore them; then a serialization failure runs the batch again instead).
    ///
    /// - Throws: ``PostgresStoreError``: `.invalidURL`, `.invalidTablePrefix`,
    ///   `.cannotConnect`, `.authenticationFailed`, `.notAMachineStore`, `.queryFailed`. Opening
    ///   does not wait for a server that cannot be reached.
    public convenience init(
        url: String, tablePrefix: String = PostgresMachineStore.defaultTablePrefix,
        reconnection: Reconnection = Reconnection(), logger: Logger? = nil
    ) async throws(PostgresStoreError) {
        let endpoint: PostgresJournalEndpoint
        do {
            endpoint = try PostgresJournalEndpoint(url: url, table: tablePrefix)
        } catch {
            throw error.asMachineStore
        }
        var reconnection = reconnection
        if let timeout = endpoint.reconnectTimeout { reconnection.deadline = timeout }
        try await self.init(endpoint: endpoint, tablePrefix: tablePrefix, reconnection: reconnection, logger: logger)
    }

    /// Opens the store on the server `configuration` describes, creating its tables when they
    /// are missing; see ``init(url:tablePrefix:reconnection:logger:)``.
    ///
    /// ```swift
    /// var configuration = PostgresClient.Configuration(
    ///     host: "db.internal", username: "app", password: secret, database: "orders", tls: .disable)
    /// configuration.options.maximumConnections = 8
    /// let store = try await PostgresMachineStore(configuration: configuration)
    /// ```
    public convenience init(
        configuration: PostgresClient.Configuration, tablePrefix: String = PostgresMachineStore.defaultTablePrefix,
        reconnection: Reconnection = Reconnection(), logger: Logger? = nil
    ) async throws(PostgresStoreError) {
        try await self.init(
            endpoint: PostgresJournalEndpoint(configuration: configuration), tablePrefix: tablePrefix,
            reconnection: reconnection, logger: logger)
    }

    convenience init(
        endpoint: PostgresJournalEndpoint, tablePrefix: String, reconnection: Reconnection, logger: Logger?
    ) async throws(PostgresStoreError) {
        let names = PostgresJournalNames(server: endpoint.server, database: endpoint.database, table: tablePrefix)
        try Self.validate(tablePrefix: tablePrefix, names)
        let connections = PostgresJournalConnections(
            configuration: Self.configuration(endpoint.configuration, reconnection), names: names,
            reconnection: reconnection, logger: logger)
        do {
            try await Self.prepare(tablePrefix, on: connections)
        } catch {
            await connections.close()
            throw error
        }
        self.init(connections: connections, endpoint: endpoint, tablePrefix: tablePrefix)
    }

    /// `configuration` with what the store's connections ask of the server at connect.
    static func configuration(
        _ configuration: PostgresClient.Configuration, _ reconnection: Reconnection
    ) -> PostgresClient.Configuration {
        var configuration = configuration
        // The version check relies on READ COMMITTED: a commit that waited for another one on its
        // key reads the version that one made, rather than failing to serialize.
        configuration.options.additionalStartupParameters.append(
            ("default_transaction_isolation", "read committed"))
        // A process stopped inside a commit's transaction (SIGSTOP, a frozen VM) holds its
        // instances' rows: the server ends its session once it idled there for the request
        // timeout, so that the other processes' commits of those keys go on (its own, resumed,
        // finds its connection lost and asks the server how its transaction ended).
        let idle = max(1_000, reconnection.requestTimeout.journalMilliseconds)
        configuration.options.additionalStartupParameters.append(
            ("idle_in_transaction_session_timeout", "\(idle)"))
        return configuration
    }

    /// Creates the store's tables on the server of `connections` when they are missing, or
    /// checks those there.
    static func prepare(
        _ tablePrefix: String, on connections: PostgresJournalConnections
    ) async throws(PostgresStoreError) {
        let names = connections.names
        let logger = connections.logger
        do {
            try await connections.withFirstConnection { connection in
                try await PostgresMachineSchema.prepare(tablePrefix, on: connection, names: names, logger: logger)
            }
        } catch {
            throw error.asMachineStore
        }
    }

    /// The store on `connections`, its tables prepared (a ``PostgresStore``'s view, or the
    /// store's own pool); `journal`: the journal of the same database (the ``PostgresStore``'s
    /// other view), on which a step's commands are enqueued in the step's transaction.
    init(
        connections: PostgresJournalConnections, endpoint: PostgresJournalEndpoint, tablePrefix: String,
        journal: PostgresCommandJournal? = nil
    ) {
        let sql = PostgresMachineSQL(prefix: tablePrefix)
        let committer = PostgresMachineCommitter(
            statement: sql.commit, names: connections.names, logger: connections.logger, journal: journal?.writer)
        self.sharedJournal = journal
        self.tablePrefix = tablePrefix
        self.server = endpoint.server
        self.database = endpoint.database
        self.connections = connections
        self.sql = sql
        self.committer = committer
        self.commits = GroupCommit(maximumBatch: 256) { commits in await committer.commit(commits, connections) }
        connections.logger.debug("machine store opened")
    }

    /// `true` when `journal` is the other view of this store's ``PostgresStore``: a step's
    /// commands are then written into the journal in the step's own transaction
    /// (`MachineCommit.commands`), not through the outbox.
    public func enqueuesCommands(on journal: any CommandJournal) -> Bool {
        guard let sharedJournal, let journal = journal as? PostgresCommandJournal else { return false }
        return journal === sharedJournal
    }

    /// Waits for the requests under way (every caller is answered), then closes the pool's
    /// connections. Requests made after it throw `.closed`. Calling it again does nothing more.
    public func close() async {
        await connections.close()
    }

    static func validate(
        tablePrefix: String, _ names: PostgresJournalNames
    ) throws(PostgresStoreError) {
        let letters = tablePrefix.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
        guard letters, let first = tablePrefix.unicodeScalars.first, !("0"..."9").contains(first),
            tablePrefix.count <= 48
        else {
            throw PostgresStoreError(
                code: .invalidTablePrefix, server: names.server, database: names.database, tablePrefix: tablePrefix,
                reason: "'\(tablePrefix)' is not a table prefix: use 1 to 48 letters, digits and _, "
                    + "not starting with a digit")
        }
    }
}
