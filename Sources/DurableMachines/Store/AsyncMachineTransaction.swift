/// ``MachineTransaction`` for stores whose connections are asynchronous (PostgreSQL): a store's
/// view from inside a database transaction the application owns, whose steps commit with the
/// application's own writes, or not at all.
///
/// `PostgresMachineStore.transaction(_:)` makes one from a `PostgresConnection` in a transaction:
///
/// ```swift
/// try await client.withTransaction(logger: logger) { connection in
///     try await connection.query("UPDATE invoice SET paid = true WHERE id = \(invoice)", logger: logger)
///     let step = try await orders.send(.pay, to: "order-42", id: requestID, in: store.transaction(connection))
///     if step.isReplay { throw AlreadyPaid() }   // a retried request: roll the invoice back
/// }
/// ```
public protocol AsyncMachineTransaction {
    /// The instance of `key`, as this transaction sees it.
    func instance(_ key: MachineKey) async throws -> MachineInstanceRecord?

    /// Writes `commit` in this transaction when the instance is at its expected version and its
    /// event id is new (see ``MachineStore/commit(_:)``).
    func commit(_ commit: MachineCommit) async throws -> MachineCommitResult
}
