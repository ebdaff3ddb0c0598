public import DurableMachines
public import GRDB

/// A SQLite machine store seen from inside the application's write transaction (GRDB's
/// `Database` in `write { db in … }`): steps sent through it commit with the application's
/// own writes. The store's tables must be in that database (``SQLiteMachineStore/init(database:path:)``).
public struct SQLiteMachineTransaction: MachineTransaction {
    let db: Database

    /// The instance of `key` in this transaction.
    public func instance(_ key: MachineKey) throws -> MachineInstanceRecord? {
        try MachineStoreSQL.instance(key, db)
    }

    /// Writes `commit` in this transaction (see `MachineStore.commit(_:)`).
    public func commit(_ commit: MachineCommit) throws -> MachineCommitResult {
        try MachineStoreSQL.commit(commit, db)
    }
}

extension SQLiteMachineStore {
    /// This store inside the application's write transaction `db`.
    ///
    /// ```swift
    /// try await dbPool.write { db in
    ///     try db.execute(sql: "INSERT INTO payment (order, cents) VALUES (?, ?)", arguments: [42, 990])
    ///     try orders.send(.pay, to: "order-42", id: requestID, in: store.transaction(db))
    /// }
    /// ```
    public func transaction(_ db: Database) -> SQLiteMachineTransaction {
        SQLiteMachineTransaction(db: db)
    }
}
