import BehaviorKitSync
public import Commands
public import GRDB
public import Logging

/// A durable `CommandJournal` on SQLite (WAL mode, `synchronous` FULL by default): a record
/// written down is on disk before the call returns, and survives a crash or a power cut. Any
/// number of processes on one machine can share the file; each claim, lease and settlement is
/// one IMMEDIATE transaction, so two workers never hold one record.
///
/// ```swift
/// let journal = try SQLiteCommandJournal(path: "orders.journal")
/// let invoker = JournaledInvoker(journal: journal, registry: registry)
/// print(try await invoker.recover())  // settles what stopped workers left
/// try await invoker.perform(Charge(order: 42, cents: 990), key: "order-42/charge")
/// ```
///
/// Writes arriving together from many tasks share one transaction and one flush (group
/// commit): each caller is answered once its own write is durable.
///
/// Opening checks the file before it writes anything: a file that is not a database, is
/// corrupt or truncated (a damaged index included, as ``Verification`` details), holds a
/// record no read could decode, is another application's database, or has a WAL beside it
/// that would turn it into another database is refused with a ``SQLiteStoreError``
/// naming the file, and both files are left as they were. The journal can also live in your
/// own GRDB database: ``init(database:path:clock:logger:)`` (``SQLiteCommandJournalReader``
/// reads it there too, by path).
///
/// A damaged key index is found when the file is opened; a write trusts the index it checks
/// keys with, so damage made while the journal is open (by another program editing the file)
/// is found at the next opening.
///
/// With a `logger` it logs its opening and every commit that fails; with a swift-metrics
/// backend bootstrapped before it is opened it times its commits and records their sizes
/// (`behaviorkit_journal_commit_duration_seconds`, `behaviorkit_journal_commit_batch_size`).
public final class SQLiteCommandJournal: CommandJournalManagement, JournalWriting, QueueWakeSource, JobSettlementSource
{
    /// How hard a commit waits for the disk (SQLite's `synchronous`).
    public enum Durability: Int, Sendable, Hashable, CaseIterable {
        /// Flush at checkpoints only: a power cut may lose the last commits (not a crash).
        case normal = 1
        /// Flush the WAL at every commit: nothing acknowledged is lost. The default.
        case full = 2
        /// As `full`, and flush the folder too.
        case extra = 3
    }

    /// How thoroughly opening checks the file. Both levels start with SQLite's `quick_check` of
    /// the whole file (every page's structure, records well formed, `NOT NULL`), and end by
    /// refusing a record no read could decode (an unknown status, a value of the wrong type)
    /// with a `.malformedRecord` error, before anything is written. On 100,000 records,
    /// `quick_check` alone takes about 15 ms; each level about 120 ms.
    public enum Verification: Sendable, Hashable {
        /// Then SQLite's `integrity_check` of the journal's table and its indexes: every index
        /// entry against its row (a key index that lost a record, or holds one under another
        /// key, would admit a second record under that key), and the `UNIQUE` constraint on
        /// keys. Other tables of the file (an application's own, in its database) are checked
        /// page by page only.
        case quick
        /// Then SQLite's `integrity_check` of every table and index of the file, and of its
        /// free pages.
        case full
    }

    /// The journal's file.
    public let path: String
    /// The durability asked for.
    public let durability: Durability
    /// Where the journal logs; `nil`: nowhere.
    public let logger: Logger?

    let database: any DatabaseWriter
    let ownsDatabase: Bool
    let clock: any WallClock
    let writes: GroupCommit<JournalWrite, JournalWriteOutcome>
    /// The typed writes, over ``writes``.
    package let channel: JournalWriteChannel
    /// Wakes this process's workers on another process's enqueue, from the first
    /// ``wakeups(of:)`` until ``close()``.
    package let watcher: SQLiteQueueWatcher

    /// Opens the journal at `path`, creating it when it does not exist, after checking it.
    ///
    /// - Parameters:
    ///   - path: the journal's file, created when it does not exist; its folder must exist.
    ///   - durability: how hard a commit waits for the disk.
    ///   - busyTimeout: how long a write waits for another process's write lock before it fails.
    ///   - clock: the calendar time leases are judged by; every process sharing the file must
    ///     read the same (the system clock, or a `ManualClock` in tests).
    ///   - verification: how thoroughly the file is checked first.
    ///   - logger: where to log the opening and the commits that fail; `nil` to log nothing.
    /// - Throws: ``SQLiteStoreError`` naming `path` (or its WAL) when the file cannot be
    ///   opened, is not a database, is corrupt or truncated, is not a command journal, or has a
    ///   WAL that belongs to another database. Nothing is written to a file that fails a check.
    public init(
        path: String, durability: Durability = .full, busyTimeout: Duration = .seconds(10),
        clock: any WallClock = SystemWallClock(), verification: Verification = .quick, logger: Logger? = nil
    ) throws(SQLiteStoreError) {
        guard !path.isEmpty else {
            throw SQLiteStoreError(code: .cannotOpen, path: path, reason: "the path is empty: name a file")
        }
        self.path = path
        self.durability = durability
        self.clock = clock
        let logger = Self.tagged(logger, path: path)
        self.logger = logger
        let inspection = try JournalFileInspection(path: path, verification: verification, busyTimeout: busyTimeout)
        let database = try JournalFileOpener.open(
            path, inspection: inspection, durability: durability, busyTimeout: busyTimeout)
        self.database = database
        self.ownsDatabase = true
        self.writes = Self.groupCommit(database, path: path, clock: clock, logger: logger)
        self.channel = Self.channel(writes, path: path)
        self.watcher = SQLiteQueueWatcher(
            path: path, signal: channel.queueSignal, settled: channel.settlementSignal, logger: logger)
        logger?.debug("journal opened", metadata: ["durability": "\(durability)", "verification": "\(verification)"])
    }

    /// A journal in the application's own GRDB database, whose migrator created its table
    /// (``registerMigrations(in:)``): a business write and a journal settlement can then commit
    /// in one transaction (``settle(_:as:in:)``).
    ///
    /// ```swift
    /// var migrator = DatabaseMigrator()
    /// migrator.registerMigration("orders") { db in … }
    /// SQLiteCommandJournal.registerMigrations(in: &migrator)
    /// try migrator.migrate(dbPool)
    /// let journal = SQLiteCommandJournal(database: dbPool, path: dbPool.path)
    /// ```
    public init(
        database: any DatabaseWriter, path: String, clock: any WallClock = SystemWallClock(), logger: Logger? = nil
    ) {
        self.path = path
        self.durability = .full
        self.clock = clock
        self.database = database
        self.ownsDatabase = false
        let logger = Self.tagged(logger, path: path)
        self.logger = logger
        self.writes = Self.groupCommit(database, path: path, clock: clock, logger: logger)
        self.channel = Self.channel(writes, path: path)
        self.watcher = SQLiteQueueWatcher(
            path: path, signal: channel.queueSignal, settled: channel.settlementSignal, logger: logger)
    }

    /// Wakes on each enqueue and retry of `queue` through this journal, and, within a few
    /// milliseconds, on another process's enqueue into the same file: the first call starts a
    /// connection that watches the file (`PRAGMA data_version`, every 5 ms, and on Linux at once
    /// when another journal's enqueue touches the file's times, which inotify tells) until
    /// ``close()``.
    /// See `QueueWakeSource` (Commands).
    public func wakeups(of queue: String) -> AsyncStream<Void> {
        watcher.start()
        return channel.queueSignal.wakeups(of: queue)
    }

    /// Wakes on each settlement or cancellation of the record `key` through this journal, and,
    /// within a few milliseconds, on another process's commit to the same file, when the record
    /// may have settled there: the first call starts the watcher of ``wakeups(of:)``. See
    /// `JobSettlementSource` (Commands).
    public func settlements(of key: String) -> AsyncStream<Void> {
        watcher.start()
        return channel.settlementSignal.wakeups(of: key)
    }

    /// `logger` with the journal's path in its metadata.
    private static func tagged(_ logger: Logger?, path: String) -> Logger? {
        guard var logger else { return nil }
        logger[metadataKey: "journal"] = "\(path)"
        return logger
    }

    /// Adds the migrations that create the journal's table, the table of queued records' trace
    /// contexts, the log of attempts and index
    /// its management API reads (``details(forKey:)``), and the records' priorities with the
    /// index of claims, the table of paused queues, the records' partitions, the table of schedules, the tables of rate limits, and the records' pickup times, to the application's migrator. Run them
    /// all before the journal writes: its writes and claims read the priority.
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("behaviorkit-command-journal-2") { db in try CommandJournalSchema.create(db) }
        migrator.registerMigration("behaviorkit-command-journal-attempts") { db in
            try CommandJournalSchema.createManagementTables(db)
        }
        migrator.registerMigration("behaviorkit-command-journal-traces") { db in
            try db.execute(sql: CommandJournalSchema.createTraces)
        }
        migrator.registerMigration("behaviorkit-command-journal-priorities") { db in
            try CommandJournalSchema.addPriorities(db)
        }
        migrator.registerMigration("behaviorkit-command-journal-pauses") { db in
            try db.execute(sql: CommandJournalSchema.createPausedQueues)
        }
        migrator.registerMigration("behaviorkit-command-journal-partitions") { db in
            try CommandJournalSchema.addPartitions(db)
        }
        migrator.registerMigration("behaviorkit-command-journal-schedules") { db in
            try db.execute(sql: CommandJournalSchema.createSchedules)
        }
        migrator.registerMigration("behaviorkit-command-journal-rate-limits") { db in
            try db.execute(sql: CommandJournalSchema.createRateLimits)
        }
        migrator.registerMigration("behaviorkit-command-journal-pickups") { db in
            try CommandJournalSchema.addPickups(db)
        }
    }

    /// The time now, as the journal stores it.
    var now: Int64 { clock.currentDate.journalMilliseconds }
}
