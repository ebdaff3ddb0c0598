import Commands
public import DurableMachines
public import Foundation
import GRDB

extension SQLiteMachineStore {
    /// See `MachineStore.instance(_:)`.
    public func instance(_ key: MachineKey) async throws -> MachineInstanceRecord? {
        try await database.read { db in try MachineStoreSQL.instance(key, db) }
    }

    /// See `MachineStore.step(_:eventID:)`.
    public func step(_ key: MachineKey, eventID: String) async throws -> MachineStepRecord? {
        try await database.read { db in try MachineStoreSQL.step(key, eventID: eventID, db) }
    }

    /// See `MachineStore.dueTimers(machine:dueBy:limit:)`.
    public func dueTimers(machine: String, dueBy date: Date, limit: Int) async throws -> [MachineTimerRecord] {
        try await database.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT key, id, dueAt, body FROM behaviorkitMachineTimer
                        WHERE machine = ? AND dueAt <= ? ORDER BY dueAt, key, id LIMIT ?
                        """),
                arguments: [machine, date.journalMilliseconds, max(0, limit)]
            ).map { row in
                MachineTimerRecord(
                    key: MachineKey(machine: machine, key: row["key"]), id: row["id"],
                    dueAt: Date(journalMilliseconds: row["dueAt"]), body: Array(row["body"] as Data))
            }
        }
    }

    /// See `MachineStore.nextTimerDue(machine:)`.
    public func nextTimerDue(machine: String) async throws -> Date? {
        try await database.read { db in
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT MIN(dueAt) FROM behaviorkitMachineTimer WHERE machine = ?"),
                arguments: [machine]
            ).map(Date.init(journalMilliseconds:))
        }
    }

    /// See `MachineStore.keys(machine:in:enteredBefore:after:limit:)`: an index range scan.
    public func keys(
        machine: String, in state: String, enteredBefore date: Date?, after cursor: MachineStateEntry?, limit: Int
    ) async throws -> [MachineStateEntry] {
        try await database.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT key, enteredAt FROM behaviorkitMachineState
                        WHERE machine = ? AND state = ? AND enteredAt < ? AND (enteredAt, key) > (?, ?)
                        ORDER BY enteredAt, key LIMIT ?
                        """),
                arguments: [
                    machine, state, date?.journalMilliseconds ?? Int64.max,
                    cursor?.enteredAt.journalMilliseconds ?? Int64.min,
                    cursor?.key ?? "", max(0, limit),
                ]
            ).map { row in
                MachineStateEntry(key: row["key"], state: state, enteredAt: Date(journalMilliseconds: row["enteredAt"]))
            }
        }
    }

    /// See `MachineStore.countsByState(machine:)`.
    public func countsByState(machine: String) async throws -> [String: Int] {
        try await database.read { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT state, COUNT(*) AS count FROM behaviorkitMachineState WHERE machine = ? GROUP BY state"
                ),
                arguments: [machine])
            {
                counts[row["state"]] = row["count"]
            }
            return counts
        }
    }

    /// See `MachineStore.history(_:after:limit:)`.
    public func history(_ key: MachineKey, after sequence: Int64, limit: Int) async throws -> [MachineStepRecord] {
        try await database.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT sequence, eventID, at, body FROM behaviorkitMachineStep
                        WHERE machine = ? AND key = ? AND sequence > ? ORDER BY sequence LIMIT ?
                        """),
                arguments: [key.machine, key.key, sequence, max(0, limit)]
            ).map(MachineStoreSQL.stepRecord)
        }
    }
}
