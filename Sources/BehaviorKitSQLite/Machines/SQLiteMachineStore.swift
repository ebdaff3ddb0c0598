import BehaviorKitSync
public import Commands
public import DurableMachines
import Foundation
public import GRDB

/// A durable `MachineStore` on SQLite (WAL mode, `synchronous` FULL): a step acknowledged is on
/// disk, and survives a crash or a power cut. Any number of processes on one machine can share
/// the file; each step commits in one IMMEDIATE transaction, checked against the version it was
/// computed from.
///
/// ```swift
/// let store = try SQLiteMachineStore(path: "orders.machines")
/// let orders = DurableMachine("order", definition: lifecycle, store: store)
/// ```
///
/// The store can also live in your own GRDB database (``init(database:path:)`` after
/// ``registerMigrations(in:)``), so that a business write and a step commit in one transaction
/// (``transaction(_:)``).
public final class SQLiteMachineStore: MachineStore {
    /// The store's file.
    public let path: String
    let database: any DatabaseWriter
    let ownsDatabase: Bool
    /// Commits arriving together from many tasks share one transaction and one flush, each in a
    /// savepoint of its own (a commit refused or failed changes nothing of the others').
    let writes: GroupCommit<SQLiteMachineWrite, SQLiteMachineWriteOutput>

    /// Opens the store at `path`, creating it when it does not exist. A ``SQLiteStore``'s file
    /// opens too (its machines, without its journal).
    ///
    /// - Parameters:
    ///   - path: the store's file; its folder must exist.
    ///   - durability: how hard a commit waits for the disk.
    ///   - busyTimeout: how long a write waits for another process's write lock.
    /// - Throws: ``SQLiteStoreError`` naming the file when it cannot be opened, or holds
    ///   tables of something else (it is then left as it was).
    public init(
        path: String, durability: SQLiteCommandJournal.Durability = .full, busyTimeout: Duration = .seconds(10)
    ) throws(SQLiteStoreError) {
        guard !path.isEmpty else {
            throw SQLiteStoreError(
                code: .cannotOpen, part: .machineStore, path: path, reason: "the path is empty: name a file")
        }
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .polling(for: busyTimeout)
        do {
            try Self.checkBeforeWriting(path, busyTimeout: busyTimeout)
            let pool = try retryingWhileBusy(for: busyTimeout) {
                try DatabasePool(path: path, configuration: configuration)
            }
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(durability.rawValue)")
            }
            try pool.write { db in try Self.prepare(db, path: path) }
            database = pool
        } catch let error as SQLiteStoreError {
            throw error
        } catch {
            throw SQLiteStoreError(path: path, error, opening: true, part: .machineStore)
        }
        ownsDatabase = true
        writes = Self.groupCommit(database)
    }

    /// A store in the application's own GRDB database, whose migrator created its tables
    /// (``registerMigrations(in:)``).
    public init(database: any DatabaseWriter, path: String) {
        self.path = path
        self.database = database
        self.ownsDatabase = false
        self.writes = Self.groupCommit(database)
    }

    /// Runs a batch of writes in one write transaction, each in a savepoint; a write alone
    /// runs it in its caller's task.
    static func groupCommit(_ database: any DatabaseWriter) -> GroupCommit<SQLiteMachineWrite, SQLiteMachineWriteOutput>
    {
        GroupCommit(maximumBatch: 256, commitsLoneWritesInCaller: true) { writes in
            do {
                return try await database.uncancelledWrite { db in
                    writes.map { write in Result { try write.run(db) } }
                }
            } catch {
                return writes.map { _ in .failure(error) }
            }
        }
    }

    /// Adds the migration that creates the store's tables to the application's migrator.
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("behaviorkit-machine-store-1") { db in try MachineStoreSchema.create(db) }
    }

    /// Reads an existing file without writing to it (nor adding a file beside it: see
    /// ``ReadOnlyConnection``), and refuses one that is not a machine store.
    private static func checkBeforeWriting(_ path: String, busyTimeout: Duration) throws {
        let size = JournalFileInspection.size(path) ?? 0
        guard size > 0 else { return }
        let queue = try ReadOnlyConnection.open(path, busyTimeout: busyTimeout)
        defer { try? queue.close() }
        try queue.read { db in
            let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            if applicationID == MachineStoreSchema.applicationID { return }
            let tables = try String.fetchAll(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            if isStoreFile(applicationID, tables) { return }
            if tables.contains("commandRecord") && applicationID == CommandJournalSchema.applicationID {
                throw SQLiteStoreError(
                    code: .notAMachineStore, part: .machineStore, path: path,
                    reason: "it is a command journal; SQLiteStore(path:) opens it with a machine store beside the "
                        + "journal, in the same file")
            }
            guard tables.isEmpty, applicationID == 0 else {
                throw SQLiteStoreError(
                    code: .notAMachineStore, part: .machineStore, path: path,
                    reason: "it is not a machine store (it holds the tables \(tables.joined(separator: ", "))); "
                        + "a store in an application's database is opened with SQLiteMachineStore(database:path:)")
            }
        }
    }

    /// Creates the tables in a new file, or checks that an existing one is a machine store;
    /// inside the write transaction, so that several processes opening one new file agree.
    private static func prepare(_ db: Database, path: String) throws {
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if applicationID == MachineStoreSchema.applicationID { return }
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        if isStoreFile(applicationID, tables) { return }
        guard tables.isEmpty, applicationID == 0 else {
            throw SQLiteStoreError(
                code: .notAMachineStore, part: .machineStore, path: path,
                reason: "it is not a machine store (it holds the tables \(tables.joined(separator: ", "))); "
                    + "a store in an application's database is opened with SQLiteMachineStore(database:path:)")
        }
        try MachineStoreSchema.create(db)
        try db.execute(sql: "PRAGMA application_id = \(MachineStoreSchema.applicationID)")
    }

    /// `true` when `journal` is kept in this store's own database (both views of one
    /// ``SQLiteStore``, or both in the application's database): a step's commands are then
    /// written into the journal in the step's own transaction.
    public func enqueuesCommands(on journal: any CommandJournal) -> Bool {
        guard let journal = journal as? SQLiteCommandJournal else { return false }
        return journal.database === database
    }

    /// Whether a file is a ``SQLiteStore``'s: a journal's (by its application id) that holds the
    /// machine store's tables too. The store opens it as its own.
    private static func isStoreFile(_ applicationID: Int32, _ tables: [String]) -> Bool {
        applicationID == CommandJournalSchema.applicationID && MachineStoreSchema.tables.allSatisfy(tables.contains)
    }

    /// Closes the file (a store in the application's database leaves it open).
    public func close() async throws {
        await writes.close()
        guard ownsDatabase, let pool = database as? DatabasePool else { return }
        try? await pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try pool.close()
    }
}
