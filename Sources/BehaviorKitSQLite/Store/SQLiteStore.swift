public import Commands
import GRDB
public import Logging

/// One SQLite file for the durable state of an app: the command journal (and its queues) and
/// the durable machines' store are views of one database, opened and checked once, on one
/// connection pool. A machine step and the commands it emits then commit in one transaction:
/// no outbox, no relay, nothing to lose between them.
///
/// ```swift
/// let store = try SQLiteStore(path: "app.behaviorkit")
/// let orders = DurableMachine("order", definition: lifecycle, store: store.machines, journal: store.journal) { step, order in
///     step.configuration == [.paid] ? [try MachineCommand(Ship(order: order.id), on: "shipping")] : []
/// }
/// try await orders.send(.pay, to: "order-42")  // the step and the Ship command, one commit
/// try await QueueWorker(CommandQueue("shipping", journal: store.journal), invoker: invoker).run()
/// ```
///
/// Opening checks the file as ``SQLiteCommandJournal/init(path:durability:busyTimeout:clock:verification:logger:)``
/// does (nothing is written to a file that fails a check), then adds the machine store's tables
/// to it. A journal file opens as a store (its records stay); a store's file opens as a journal
/// (`SQLiteCommandJournal(path:)`) or as a machine store (`SQLiteMachineStore(path:)`) alone,
/// and a journal file refused by `SQLiteMachineStore(path:)` names this type.
public final class SQLiteStore: Sendable {
    /// The store's file.
    public let path: String
    /// The command journal and its queues.
    public let journal: SQLiteCommandJournal
    /// The durable machines' instances, history, timers and effects.
    public let machines: SQLiteMachineStore

    /// Opens the store at `path`, creating it when it does not exist, after checking it.
    ///
    /// - Parameters:
    ///   - path: the store's file; its folder must exist.
    ///   - durability: how hard a commit waits for the disk.
    ///   - busyTimeout: how long a write waits for another process's write lock before it fails.
    ///   - clock: the calendar time leases are judged by (every process sharing the file must
    ///     read the same).
    ///   - verification: how thoroughly the file is checked first.
    ///   - logger: where to log the opening and the commits that fail; `nil` to log nothing.
    /// - Throws: `SQLiteStoreError` naming the file and the problem, as the journal's
    ///   opening does.
    public init(
        path: String, durability: SQLiteCommandJournal.Durability = .full, busyTimeout: Duration = .seconds(10),
        clock: any WallClock = SystemWallClock(), verification: SQLiteCommandJournal.Verification = .quick,
        logger: Logger? = nil
    ) throws(SQLiteStoreError) {
        let journal = try SQLiteCommandJournal(
            path: path, durability: durability, busyTimeout: busyTimeout, clock: clock, verification: verification,
            logger: logger)
        do {
            try journal.database.write { db in try MachineStoreSchema.create(db) }
        } catch {
            throw SQLiteStoreError(path: path, error, opening: true)
        }
        self.path = path
        self.journal = journal
        self.machines = SQLiteMachineStore(database: journal.database, path: path)
    }

    /// Finishes the writes under way and closes the file: later calls of either view throw.
    public func close() async throws {
        try await machines.close()
        try await journal.close()
    }
}
