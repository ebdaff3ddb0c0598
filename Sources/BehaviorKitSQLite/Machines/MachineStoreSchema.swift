import GRDB

/// The tables of a SQLite machine store: instances, the index of their active states, history
/// steps, timers and effects. Times are whole milliseconds since 1970.
///
/// Each commit dirties as few pages as it can (each is a WAL frame to write and flush): the
/// active states are a table ordered as `keys(in:)` reads it (a commit deletes an instance's old
/// entries by their full key, read from its row), and history has no index by time (pruning,
/// rare, scans it).
enum MachineStoreSchema {
    /// Marks a file the machine store created (`PRAGMA application_id`, "BKMS").
    static let applicationID: Int32 = 0x424B_4D53

    /// The store's tables, in the order they are created.
    static let tables = [
        "behaviorkitMachineInstance", "behaviorkitMachineState", "behaviorkitMachineStep", "behaviorkitMachineTimer",
        "behaviorkitMachineEffect",
    ]

    /// Creates the tables and indexes that are missing (all of them, in a new file).
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS behaviorkitMachineInstance (
                    machine TEXT NOT NULL, key TEXT NOT NULL, version INTEGER NOT NULL, snapshot BLOB NOT NULL,
                    states BLOB NOT NULL, createdAt INTEGER NOT NULL, updatedAt INTEGER NOT NULL,
                    PRIMARY KEY (machine, key)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS behaviorkitMachineState (
                    machine TEXT NOT NULL, state TEXT NOT NULL, enteredAt INTEGER NOT NULL, key TEXT NOT NULL,
                    PRIMARY KEY (machine, state, enteredAt, key)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS behaviorkitMachineStep (
                    machine TEXT NOT NULL, key TEXT NOT NULL, sequence INTEGER NOT NULL, eventID TEXT,
                    at INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY (machine, key, sequence)) WITHOUT ROWID;
                CREATE UNIQUE INDEX IF NOT EXISTS behaviorkitMachineStepByEvent
                    ON behaviorkitMachineStep (machine, key, eventID) WHERE eventID IS NOT NULL;
                CREATE TABLE IF NOT EXISTS behaviorkitMachineTimer (
                    machine TEXT NOT NULL, key TEXT NOT NULL, id TEXT NOT NULL, dueAt INTEGER NOT NULL,
                    body BLOB NOT NULL, PRIMARY KEY (machine, key, id)) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS behaviorkitMachineTimerByDue ON behaviorkitMachineTimer (machine, dueAt);
                CREATE TABLE IF NOT EXISTS behaviorkitMachineEffect (
                    machine TEXT NOT NULL, key TEXT NOT NULL, id TEXT NOT NULL, body BLOB NOT NULL, owner TEXT,
                    leaseExpiresAt INTEGER, attempts INTEGER NOT NULL, PRIMARY KEY (machine, key, id)) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS behaviorkitMachineEffectByLease
                    ON behaviorkitMachineEffect (machine, leaseExpiresAt);
                """)
    }
}
