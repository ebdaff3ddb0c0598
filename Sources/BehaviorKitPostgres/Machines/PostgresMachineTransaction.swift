public import DurableMachines
public import PostgresNIO

/// A PostgreSQL machine store seen from inside the application's transaction on one of its own
/// connections (`PostgresClient.withTransaction`): steps sent through it commit with the
/// application's writes, or not at all. The connection must reach the store's database; run the
/// transaction at READ COMMITTED (PostgreSQL's default), see
/// ``PostgresMachineStore/commit(_:on:)``.
public struct PostgresMachineTransaction: AsyncMachineTransaction {
    let store: PostgresMachineStore
    let connection: PostgresConnection

    /// The instance of `key` as this transaction sees it.
    ///
    /// - Throws: ``PostgresStoreError``.
    public func instance(_ key: MachineKey) async throws -> MachineInstanceRecord? {
        do {
            try store.committer.validate([key.machine, key.key])
            return try await store.instance(key, reading: connection)
        } catch {
            throw store.storeError(error)
        }
    }

    /// Writes `commit` in this transaction; see ``PostgresMachineStore/commit(_:on:)``.
    ///
    /// - Throws: ``PostgresStoreError``.
    public func commit(_ commit: MachineCommit) async throws -> MachineCommitResult {
        try await store.commit(commit, on: connection)
    }
}

extension PostgresMachineStore {
    /// This store inside the application's transaction on `connection`.
    ///
    /// ```swift
    /// try await client.withTransaction(logger: logger) { connection in
    ///     try await connection.query("INSERT INTO payment (order_id, cents) VALUES (42, 990)", logger: logger)
    ///     try await orders.send(.pay, to: "order-42", id: requestID, in: store.transaction(connection))
    /// }
    /// ```
    public func transaction(_ connection: PostgresConnection) -> PostgresMachineTransaction {
        PostgresMachineTransaction(store: self, connection: connection)
    }
}
