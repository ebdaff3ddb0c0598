import BehaviorKitSQLite
import Commands
import GRDB

/// An application's GRDB database with the journal's migrations registered, migrated up to one
/// of them (or all), and a journal in it: what an app that has not upgraded yet runs.
struct MigratedApplicationDatabase {
    let database: DatabasePool
    let migrator: DatabaseMigrator
    let journal: SQLiteCommandJournal

    /// The database at `path`, migrated up to `migration` (every migration when `nil`), with a
    /// journal on `clock`.
    init(path: String, upTo migration: String? = nil, clock: any WallClock = SystemWallClock()) throws {
        database = try DatabasePool(path: path)
        var migrator = DatabaseMigrator()
        SQLiteCommandJournal.registerMigrations(in: &migrator)
        if let migration { try migrator.migrate(database, upTo: migration) } else { try migrator.migrate(database) }
        self.migrator = migrator
        journal = SQLiteCommandJournal(database: database, path: path, clock: clock)
    }

    /// Runs the migrations that have not run yet.
    func migrateTheRest() throws {
        try migrator.migrate(database)
    }
}
