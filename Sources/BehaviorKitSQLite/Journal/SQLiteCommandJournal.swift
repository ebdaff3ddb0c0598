public import Commands
import GRDB

/// A durable ``CommandJournal`` in one SQLite file (WAL mode, `synchronous` FULL by default):
/// a record appended is on disk before `append` returns, and survives a crash or a power cut.
///
/// Appends and marks arriving together from many tasks share one transaction and one flush
/// (group commit): each caller is answered once its own record is durable.
///
/// ```swift
/// let journal = try SQLiteCommandJournal(path: "orders.journal")
/// let invoker = JournaledInvoker(journal: journal, registry: registry)
/// print(try await invoker.recover())  // settles what the last crash left
/// try await invoker.perform(Charge(order: 42, cents: 990), key: "order-42/charge")
/// ```
///
/// A file that is not a database, or is corrupt or truncated, gives a
/// ``SQLiteCommandJournalError`` naming the path and the problem; the file is never rewritten.
public final class SQLiteCommandJournal: CommandJournal {
    /// How hard a commit waits for the disk (SQLite's `synchronous`).
    public enum Durability: Int, Sendable, Hashable, CaseIterable {
        /// Flush at checkpoints only: a power cut may lose the last commits (not a crash).
        case normal = 1
        /// Flush the WAL at every commit: nothing acknowledged is lost. The default.
        case full = 2
        /// As `full`, and flush the folder too.
        case extra = 3
    }

    /// The journal's file.
    public let path: String
    /// The durability asked for.
    public let durability: Durability

    let database: DatabasePool
    let writes: GroupCommit<Write, CommandJournalRecord?>

    enum Write: Sendable {
        case append(CommandJournalEntry)
        case mark(String, CommandJournalStatus, reason: String?)
    }

    /// Opens the journal at `path`, creating it when it does not exist, and checks it.
    ///
    /// - Throws: ``SQLiteCommandJournalError`` naming `path` when the file cannot be opened,
    ///   is not a database, is corrupt or truncated, or is not a command journal.
    public init(path: String, durability: Durability = .full) throws(SQLiteCommandJournalError) {
        self.path = path
        self.durability = durability
        let database = try Self.open(path, durability: durability)
        self.database = database
        self.writes = GroupCommit { operations in
            await Self.commit(operations, database, path: path)
        }
    }

    private static func open(
        _ path: String, durability: Durability
    ) throws(SQLiteCommandJournalError)
        -> DatabasePool
    {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let database: DatabasePool
        do {
            database = try DatabasePool(path: path, configuration: configuration)
            // DatabasePool sets NORMAL when it enables WAL; the writer gets ours afterwards.
            try database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = \(durability.rawValue)")
            }
            let problems = try database.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            guard problems == ["ok"] else {
                throw SQLiteCommandJournalError(
                    code: .corrupt, path: path, reason: problems.prefix(3).joined(separator: "; "))
            }
        } catch {
            throw SQLiteCommandJournalError(path: path, error, opening: true)
        }
        do {
            let tables = try database.read { db in
                try String.fetchAll(
                    db,
                    sql:
                        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
                )
            }
            if !tables.isEmpty && !tables.contains("commandRecord") {
                throw SQLiteCommandJournalError(
                    code: .notAJournal, path: path, reason: "it holds the tables " + tables.joined(separator: ", "))
            }
            try CommandJournalSchema.migrator().migrate(database)
            try database.read { db in
                _ = try Row.fetchOne(db, sql: "SELECT \(CommandJournalSchema.columns) FROM commandRecord")
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            throw SQLiteCommandJournalError(code: .notAJournal, path: path, reason: error.message ?? "\(error)")
        } catch {
            throw SQLiteCommandJournalError(path: path, error, opening: true)
        }
        return database
    }

    private static func commit(
        _ operations: [Write], _ database: DatabasePool, path: String
    ) async -> [Result<CommandJournalRecord?, any Error>] {
        do {
            return try await database.write { db in
                var results: [Result<CommandJournalRecord?, any Error>] = []
                results.reserveCapacity(operations.count)
                for operation in operations {
                    do {
                        switch operation {
                        case .append(let entry):
                            results.append(.success(try CommandJournalSchema.append(entry, db, path: path)))
                        case .mark(let key, let status, let reason):
                            try CommandJournalSchema.mark(key, status, reason: reason, db)
                            results.append(.success(nil))
                        }
                    } catch let error as CommandJournalError {
                        results.append(.failure(error))  // this caller's mistake: the others go on
                    }
                }
                return results
            }
        } catch {
            let failure = SQLiteCommandJournalError(path: path, error, opening: false)
            return operations.map { _ in .failure(failure) }
        }
    }
}
