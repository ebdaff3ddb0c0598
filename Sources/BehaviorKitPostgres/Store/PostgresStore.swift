public import Commands
public import Logging
public import PostgresNIO

/// One PostgreSQL database for the durable state of an app: the command journal (and its
/// queues) and the durable machines' store are views of one connection pool, opened and
/// checked once, closed together.
///
/// ```swift
/// let store = try await PostgresStore(url: "postgres://app:secret@db.internal/orders")
/// let orders = DurableMachine("order", definition: lifecycle, store: store.machines, journal: store.journal) { step, order in
///     step.configuration == [.paid] ? [try MachineCommand(Ship(order: order.id), on: "shipping")] : []
/// }
/// try await orders.send(.pay, to: "order-42")
/// try await QueueWorker(CommandQueue("shipping", journal: store.journal), invoker: invoker).run()
/// ```
///
/// The views are the types opened alone (``PostgresCommandJournal``, ``PostgresMachineStore``),
/// on the same tables: a database written by either opens as a store, and a store's database
/// opens as either. Their requests share the pool's connections (one set of connections, one
/// reconnection policy, one `close()`), and the pool's connections ask the server for what the
/// machine store needs (`READ COMMITTED`, an idle-in-transaction timeout), which the journal
/// keeps to as it is. A machine step and the commands it emits commit in one transaction (the
/// machine store enqueues them with the journal's batch function): no outbox, no relay, nothing
/// to lose between them, as with `SQLiteStore`.
public final class PostgresStore: Sendable {
    /// The command journal and its queues.
    public let journal: PostgresCommandJournal
    /// The durable machines' instances, history, timers and effects.
    public let machines: PostgresMachineStore

    /// Opens the store in the database `url` names, creating the tables that are missing.
    ///
    /// - Parameters:
    ///   - url: where the server is, who connects, and the database, as
    ///     ``PostgresCommandJournal/init(url:table:clock:reconnection:logger:)`` reads it.
    ///   - table: the journal's table.
    ///   - tablePrefix: the start of the machine store's tables' names.
    ///   - clock: the calendar time the journal's leases are judged by; `nil`, the server's.
    ///   - reconnection: how each request of either view rides out a server that restarts or
    ///     goes away for a while.
    ///   - logger: where both views log, each naming its tables; `nil` logs nothing.
    /// - Throws: ``PostgresStoreError``, whose ``PostgresStoreError/part`` says whether the
    ///   URL, the connection or the journal's table failed (`.commandJournal`) or the machine
    ///   store's tables (`.machineStore`). Nothing stays open after an error.
    public convenience init(
        url: String, table: String = PostgresCommandJournal.defaultTable,
        tablePrefix: String = PostgresMachineStore.defaultTablePrefix, clock: (any WallClock)? = nil,
        reconnection: PostgresCommandJournal.Reconnection = PostgresCommandJournal.Reconnection(),
        logger: Logger? = nil
    ) async throws {
        let endpoint = try PostgresJournalEndpoint(url: url, table: table)
        var reconnection = reconnection
        if let timeout = endpoint.reconnectTimeout { reconnection.deadline = timeout }
        try await self.init(
            endpoint: endpoint, table: table, tablePrefix: tablePrefix, clock: clock, reconnection: reconnection,
            logger: logger)
    }

    /// Opens the store on the server `configuration` describes; see
    /// ``init(url:table:tablePrefix:clock:reconnection:logger:)``.
    public convenience init(
        configuration: PostgresClient.Configuration, table: String = PostgresCommandJournal.defaultTable,
        tablePrefix: String = PostgresMachineStore.defaultTablePrefix, clock: (any WallClock)? = nil,
        reconnection: PostgresCommandJournal.Reconnection = PostgresCommandJournal.Reconnection(),
        logger: Logger? = nil
    ) async throws {
        try await self.init(
            endpoint: PostgresJournalEndpoint(configuration: configuration), table: table, tablePrefix: tablePrefix,
            clock: clock, reconnection: reconnection, logger: logger)
    }

    init(
        endpoint: PostgresJournalEndpoint, table: String, tablePrefix: String, clock: (any WallClock)?,
        reconnection: PostgresCommandJournal.Reconnection, logger: Logger?
    ) async throws {
        let journalNames = PostgresJournalNames(server: endpoint.server, database: endpoint.database, table: table)
        let machineNames = PostgresJournalNames(
            server: endpoint.server, database: endpoint.database, table: tablePrefix)
        try PostgresCommandJournal.validate(table: table, journalNames)
        try PostgresMachineStore.validate(tablePrefix: tablePrefix, machineNames)
        let journalConnections = PostgresJournalConnections(
            configuration: PostgresMachineStore.configuration(endpoint.configuration, reconnection),
            names: journalNames, reconnection: reconnection, logger: logger)
        let machineConnections = PostgresJournalConnections(
            sharing: journalConnections, names: machineNames, logger: logger)
        do {
            try await PostgresCommandJournal.prepare(table, on: journalConnections)
            try await PostgresMachineStore.prepare(tablePrefix, on: machineConnections)
        } catch {
            await journalConnections.close()
            throw error
        }
        journal = PostgresCommandJournal(
            connections: journalConnections, endpoint: endpoint, table: table, clock: clock)
        machines = PostgresMachineStore(
            connections: machineConnections, endpoint: endpoint, tablePrefix: tablePrefix, journal: journal)
    }

    /// Waits for the requests of both views under way, then closes the pool: later calls of
    /// either view throw `.closed`. Closing either view closes the store too.
    public func close() async {
        await journal.close()  // first: its queue listener gives its connection back
        await machines.close()
    }
}
