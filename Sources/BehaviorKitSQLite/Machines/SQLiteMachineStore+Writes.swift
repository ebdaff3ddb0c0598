import BehaviorKitSync
import Commands
public import DurableMachines
public import Foundation
import GRDB

extension SQLiteMachineStore {
    /// See `MachineStore.commit(_:)`: one IMMEDIATE transaction, shared with the commits that
    /// arrive together (group commit), each in a savepoint of its own.
    public func commit(_ commit: MachineCommit) async throws -> MachineCommitResult {
        guard case .result(let result, _) = try await submit(.commit(commit)) else {
            throw SQLiteStoreError(
                code: .ioFailed, part: .machineStore, path: path, reason: "a commit came back without a result")
        }
        return result
    }

    /// See `MachineStore.update(_:_:)`: `plan` runs inside the group commit's write transaction,
    /// on the instance as it reads it there, so no other writer (of any process) commits in
    /// between, and a step costs one trip to the writer instead of a read and a write.
    public func update<Planned: Sendable>(
        _ key: MachineKey, _ plan: @escaping @Sendable (MachineInstanceRecord?) throws -> (MachineCommit, Planned)?
    ) async throws -> MachineUpdate<Planned> {
        let output = try await submit(.update(key) { record in try plan(record).map { ($0.0, $0.1 as any Sendable) } })
        guard case .result(let result, let made) = output else { return .skipped }
        switch result {
        case .committed:
            guard let planned = made as? Planned else {
                throw SQLiteStoreError(
                    code: .ioFailed, part: .machineStore, path: path,
                    reason: "a plan's result came back as another type")
            }
            return .committed(planned)
        case .versionConflict(let current): return .versionConflict(current: current)
        case .duplicateEvent(let recorded): return .duplicateEvent(recorded)
        }
    }

    /// Hands `write` to the group commit.
    private func submit(_ write: SQLiteMachineWrite) async throws -> SQLiteMachineWriteOutput {
        do {
            return try await writes.submit(write)
        } catch is GroupCommit<SQLiteMachineWrite, SQLiteMachineWriteOutput>.Closed {
            throw SQLiteStoreError(code: .closed, part: .machineStore, path: path, reason: "close() was called")
        }
    }

    /// See `MachineStore.claimEffects(machine:owner:now:leaseExpiresAt:limit:)`: one IMMEDIATE
    /// transaction, so that two processes never claim one effect.
    public func claimEffects(
        machine: String, owner: String, now: Date, leaseExpiresAt: Date, limit: Int
    ) async throws -> [MachineEffectRecord] {
        try await database.write { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT key, id, body, attempts FROM behaviorkitMachineEffect
                        WHERE machine = ? AND (leaseExpiresAt IS NULL OR leaseExpiresAt <= ?)
                        ORDER BY key, id LIMIT ?
                        """),
                arguments: [machine, now.journalMilliseconds, max(0, limit)])
            let update = try db.cachedStatement(
                sql: """
                    UPDATE behaviorkitMachineEffect SET owner = ?, leaseExpiresAt = ?, attempts = attempts + 1
                    WHERE machine = ? AND key = ? AND id = ?
                    """)
            return try rows.map { row in
                let key: String = row["key"]
                let id: String = row["id"]
                try update.execute(arguments: [owner, leaseExpiresAt.journalMilliseconds, machine, key, id])
                let attempts: Int = row["attempts"]
                return MachineEffectRecord(
                    key: MachineKey(machine: machine, key: key), id: id, body: Array(row["body"] as Data), owner: owner,
                    leaseExpiresAt: leaseExpiresAt, attempts: attempts + 1)
            }
        }
    }

    /// See `MachineStore.renewEffect(_:id:owner:attempts:leaseExpiresAt:)`.
    public func renewEffect(
        _ key: MachineKey, id: String, owner: String, attempts: Int, leaseExpiresAt: Date
    ) async throws -> Bool {
        try await database.write { db in
            try db.cachedStatement(
                sql: """
                    UPDATE behaviorkitMachineEffect SET leaseExpiresAt = ?
                    WHERE machine = ? AND key = ? AND id = ? AND owner = ? AND attempts = ?
                    """
            ).execute(arguments: [leaseExpiresAt.journalMilliseconds, key.machine, key.key, id, owner, attempts])
            return db.changesCount == 1
        }
    }

    /// See `MachineStore.finishEffect(_:id:owner:attempts:)`.
    public func finishEffect(_ key: MachineKey, id: String, owner: String, attempts: Int) async throws -> Bool {
        try await database.write { db in
            try db.cachedStatement(
                sql: """
                    DELETE FROM behaviorkitMachineEffect
                    WHERE machine = ? AND key = ? AND id = ? AND owner = ? AND attempts = ?
                    """
            ).execute(arguments: [key.machine, key.key, id, owner, attempts])
            return db.changesCount == 1
        }
    }

    /// See `MachineStore.pruneHistory(machine:before:)`.
    public func pruneHistory(machine: String, before date: Date) async throws -> Int {
        try await database.write { db in
            try db.execute(
                sql: """
                    DELETE FROM behaviorkitMachineStep AS step
                    WHERE machine = ? AND at < ? AND sequence < (
                        SELECT version FROM behaviorkitMachineInstance AS instance
                        WHERE instance.machine = step.machine AND instance.key = step.key)
                    """, arguments: [machine, date.journalMilliseconds])
            return db.changesCount
        }
    }
}
