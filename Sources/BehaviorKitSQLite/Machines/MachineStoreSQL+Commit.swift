import Commands
import DurableMachines
import Foundation
import GRDB

/// The SQL of a machine store, on a connection inside a write transaction: shared by the store
/// and by ``SQLiteMachineTransaction`` (a step inside the application's own transaction).
enum MachineStoreSQL {
    /// Commits `commit` when the instance is at its expected version and its event id is new.
    static func commit(_ commit: MachineCommit, _ db: Database) throws -> MachineCommitResult {
        let machine = commit.key.machine
        let key = commit.key.key
        if let eventID = commit.step.eventID, let recorded = try step(commit.key, eventID: eventID, db) {
            return .duplicateEvent(recorded)
        }
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT version, states FROM behaviorkitMachineInstance WHERE machine = ? AND key = ?"),
            arguments: [machine, key])
        let current: Int64? = row?["version"]
        guard current == (commit.expectedVersion == 0 ? nil : commit.expectedVersion) else {
            return .versionConflict(current: current)
        }
        let at = commit.step.at.journalMilliseconds
        let stored = commit.states.map(StoredState.init)
        let states = try JSONEncoder().encode(stored)
        let previousStates = row.map { $0["states"] as Data } ?? Data()
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
            let old = previousStates.isEmpty ? [] : try JSONDecoder().decode([StoredState].self, from: previousStates)
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

    /// The instance of `key`.
    static func instance(_ key: MachineKey, _ db: Database) throws -> MachineInstanceRecord? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT version, snapshot, states, createdAt, updatedAt FROM behaviorkitMachineInstance
                        WHERE machine = ? AND key = ?
                        """),
                arguments: [key.machine, key.key])
        else { return nil }
        let stored = try JSONDecoder().decode([StoredState].self, from: row["states"] as Data)
        return MachineInstanceRecord(
            key: key, version: row["version"], snapshot: Array(row["snapshot"] as Data),
            states: stored.map {
                MachineStateEntry(key: key.key, state: $0.state, enteredAt: Date(journalMilliseconds: $0.at))
            },
            createdAt: Date(journalMilliseconds: row["createdAt"]),
            updatedAt: Date(journalMilliseconds: row["updatedAt"]))
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

/// An active state as the instance row lists them (in document order).
struct StoredState: Codable, Equatable {
    var state: String
    var at: Int64

    init(_ entry: MachineStateEntry) {
        state = entry.state
        at = entry.enteredAt.journalMilliseconds
    }
}
