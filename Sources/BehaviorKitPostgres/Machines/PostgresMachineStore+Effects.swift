import Commands
public import DurableMachines
public import Foundation
import PostgresNIO

extension PostgresMachineStore {
    /// Takes up to `limit` effects of `machine` that no live lease holds, in order of key then
    /// id, with `FOR UPDATE SKIP LOCKED` (claimers never wait on each other, and never take one
    /// effect twice); each claim adds one to its attempts. See
    /// `MachineStore.claimEffects(machine:owner:now:leaseExpiresAt:limit:)`.
    public func claimEffects(
        machine: String, owner: String, now: Date, leaseExpiresAt: Date, limit: Int
    ) async throws -> [MachineEffectRecord] {
        try committer.validate([machine, owner])
        guard limit > 0 else { return [] }
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(machine)
        bindings.append(owner)
        bindings.append(now.journalMilliseconds)
        bindings.append(leaseExpiresAt.journalMilliseconds)
        bindings.append(Self.limit(limit))
        let claimed = try await rows(sql.claimEffects, bindings, writes: true) { values in
            MachineEffectRecord(
                key: MachineKey(machine: machine, key: try values.value(0)), id: try values.value(1),
                body: try values.bytes(2) ?? [], owner: try values.value(3),
                leaseExpiresAt: try values.value(4, as: Int64?.self).map(Date.init(journalMilliseconds:)),
                attempts: Int(clamping: try values.value(5, as: Int64.self)))
        }
        return claimed.sorted { ($0.key.key, $0.id) < ($1.key.key, $1.id) }
    }

    /// Extends the lease of an effect `owner` holds at `attempts`; see
    /// `MachineStore.renewEffect(_:id:owner:attempts:leaseExpiresAt:)`.
    public func renewEffect(
        _ key: MachineKey, id: String, owner: String, attempts: Int, leaseExpiresAt: Date
    ) async throws -> Bool {
        try await fenced(sql.renewEffect, key, id: id, owner: owner, attempts: attempts, leaseExpiresAt)
    }

    /// Deletes an effect that finished, when `owner` still holds it at `attempts`; see
    /// `MachineStore.finishEffect(_:id:owner:attempts:)`.
    public func finishEffect(_ key: MachineKey, id: String, owner: String, attempts: Int) async throws -> Bool {
        try await fenced(sql.finishEffect, key, id: id, owner: owner, attempts: attempts, nil)
    }

    /// Runs `statement` on the effect when `owner` holds it at `attempts`; whether it did.
    private func fenced(
        _ statement: PreparedJournalStatement.Text, _ key: MachineKey, id: String, owner: String, attempts: Int,
        _ leaseExpiresAt: Date?
    ) async throws(PostgresStoreError) -> Bool {
        try committer.validate([key.machine, key.key, id, owner])
        let logger = connections.logger
        return try await write { connection in
            var bindings = PostgresBindings(capacity: 6)
            bindings.append(key.machine)
            bindings.append(key.key)
            bindings.append(id)
            bindings.append(owner)
            bindings.append(Int64(attempts))
            if let leaseExpiresAt { bindings.append(leaseExpiresAt.journalMilliseconds) }
            return try await !connection.run(statement, bindings, logger: logger).isEmpty
        }
    }
}
