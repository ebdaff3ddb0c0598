import Commands
import DurableMachines
import Foundation
import GRDB

/// The SQL of a machine store, on a connection inside a write transaction: shared by the store
/// and by ``SQLiteMachineTransaction`` (a step inside the application's own transaction).
enum MachineStoreSQL {
    /// Commits `commit` when the instance is at its expected version and its event id is new.
    /// `read`: the instance's version and states as this transaction read them (`.some(nil)`:
    /// it does not exist), or `nil` to read them here.
    static func commit(
        _ commit: MachineCommit, _ db: Database, read: InstanceVersion?? = nil
    ) throws -> MachineCommitResult {
        let machine = commit.key.machine
        let key = commit.key.key
        if let eventID = commit.step.eventID, let recorded = try step(commit.key, eventID: eventID, db) {
            return .duplicateEvent(recorded)
        }
        let row = try read ?? version(commit.key, db)
        let current = row?.version
        guard current == (commit.expectedVersion == 0 ? nil : commit.expectedVersion) else {
            return .versionConflict(current: current)
        }
        let at = commit.step.at.journalMilliseconds
        let stored = commit.states.map(StoredState.init)
        let states = try StoredState.json(stored)
        let previousStates = row?.states ?? Data()
        if commit.expectedVersion == 0 {
            try db.cachedStatement(
                sql: """
                    INSERT INTO behaviorkitMachineInstance (machine, key, version, snapshot, states, createdAt, updatedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [machine, key, commit.version, Data(commit.snapshot), states, at, at])
        } else {
            try db.cachedStatement(
                sql: """
                    UPDATE behaviorkitMachineInstance SET version = ?, snapshot = ?, states = ?, updatedAt = ?
                    WHERE machine = ? AND key = ? AND version = ?
                    """
            ).execute(arguments: [
                commit.version, Data(commit.snapshot), states, at, machine, key, commit.expectedVersion,
            ])
        }
        // The index of active states changes only when the states or their entry times do.
        if previousStates != states {
            let old = previousStates.isEmpty ? [] : try StoredState.states(fromJSON: previousStates)
            let deleteState = try db.cachedStatement(
                sql: "DELETE FROM behaviorkitMachineState WHERE machine = ? AND state = ? AND enteredAt = ? AND key = ?"
            )
            for state in old where !stored.contains(state) {
                try deleteState.execute(arguments: [machine, state.state, state.at, key])
            }
            let insertState = try db.cachedStatement(
                sql:
                    "INSERT OR REPLACE INTO behaviorkitMachineState (machine, state, enteredAt, key) VALUES (?, ?, ?, ?)"
            )
            for state in stored where !old.contains(state) {
                try insertState.execute(arguments: [machine, state.state, state.at, key])
            }
        }
        try db.cachedStatement(
            sql:
                "INSERT INTO behaviorkitMachineStep (machine, key, sequence, eventID, at, body) VALUES (?, ?, ?, ?, ?, ?)"
        ).execute(arguments: [machine, key, commit.version, commit.step.eventID, at, Data(commit.step.body)])
        let deleteTimer = try db.cachedStatement(
            sql: "DELETE FROM behaviorkitMachineTimer WHERE machine = ? AND key = ? AND id = ?")
        for id in commit.disarmedTimers { try deleteTimer.execute(arguments: [machine, key, id]) }
        let insertTimer = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO behaviorkitMachineTimer (machine, key, id, dueAt, body) VALUES (?, ?, ?, ?, ?)"
        )
        for timer in commit.armedTimers {
            try insertTimer.execute(arguments: [
                machine, key, timer.id, timer.dueAt.journalMilliseconds, Data(timer.body),
            ])
        }
        let deleteEffect = try db.cachedStatement(
            sql: "DELETE FROM behaviorkitMachineEffect WHERE machine = ? AND key = ? AND id = ?")
        for id in commit.stoppedEffects { try deleteEffect.execute(arguments: [machine, key, id]) }
        let insertEffect = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO behaviorkitMachineEffect (machine, key, id, body, owner, leaseExpiresAt, attempts)
                VALUES (?, ?, ?, ?, NULL, NULL, 0)
                """)
        for effect in commit.startedEffects {
            try insertEffect.execute(arguments: [machine, key, effect.id, Data(effect.body)])
        }
        // The commands the step emits, into the journal's table in this same transaction (a store
        // that shares the journal's database: ``SQLiteMachineStore/enqueuesCommands(on:)``).
        for command in commit.commands {
            _ = try CommandJournalSchema.enqueue(
                command.entry, queue: command.queue, after: command.delay, priority: CommandQueue.defaultPriority,
                now: at, db, path: "")
        }
        return .committed
    }

    /// The version and states column of `key`'s instance, `nil` when it does not exist.
    static func version(_ key: MachineKey, _ db: Database) throws -> InstanceVersion? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT version, states FROM behaviorkitMachineInstance WHERE machine = ? AND key = ?"),
            arguments: [key.machine, key.key]
        ).map { InstanceVersion(version: $0["version"], states: $0["states"]) }
    }

    /// The instance of `key`.
    static func instance(_ key: MachineKey, _ db: Database) throws -> MachineInstanceRecord? {
        try instanceRead(key, db)?.record
    }

    /// The instance of `key`, with its version and states column as read (for a commit of a
    /// step planned on it in the same transaction).
    static func instanceRead(
        _ key: MachineKey, _ db: Database
    ) throws -> (record: MachineInstanceRecord, version: InstanceVersion)? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT version, snapshot, states, createdAt, updatedAt FROM behaviorkitMachineInstance
                        WHERE machine = ? AND key = ?
                        """),
                arguments: [key.machine, key.key])
        else { return nil }
        let states: Data = row["states"]
        let version = InstanceVersion(version: row["version"], states: states)
        let stored = try StoredState.states(fromJSON: states)
        let record = MachineInstanceRecord(
            key: key, version: version.version, snapshot: Array(row["snapshot"] as Data),
            states: stored.map {
                MachineStateEntry(key: key.key, state: $0.state, enteredAt: Date(journalMilliseconds: $0.at))
            },
            createdAt: Date(journalMilliseconds: row["createdAt"]),
            updatedAt: Date(journalMilliseconds: row["updatedAt"]))
        return (record, version)
    }

    /// The step of `key` with `eventID`.
    static func step(_ key: MachineKey, eventID: String, _ db: Database) throws -> MachineStepRecord? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT sequence, eventID, at, body FROM behaviorkitMachineStep
                    WHERE machine = ? AND key = ? AND eventID = ?
                    """),
            arguments: [key.machine, key.key, eventID]
        ).map(stepRecord)
    }

    /// A history row read.
    static func stepRecord(_ row: Row) -> MachineStepRecord {
        MachineStepRecord(
            sequence: row["sequence"], eventID: row["eventID"], at: Date(journalMilliseconds: row["at"]),
            body: Array(row["body"] as Data))
    }
}

/// An instance's version and its states column, as a transaction read them.
struct InstanceVersion {
    var version: Int64
    var states: Data
}
