/// A store's view from inside a database transaction the application owns: a step sent through
/// it commits with the application's own writes, or not at all.
///
/// `SQLiteMachineStore.transaction(_:)` makes one from a GRDB `Database`:
///
/// ```swift
/// try await dbPool.write { db in
///     try db.execute(sql: "UPDATE invoice SET paid = 1 WHERE id = ?", arguments: [invoice])
///     let step = try orders.send(.pay, to: "order-42", id: requestID, in: store.transaction(db))
///     if step.isReplay { throw AlreadyPaid() }   // a retried request: roll the invoice back
/// }
/// ```
public protocol MachineTransaction {
    /// The instance of `key`, as this transaction sees it.
    func instance(_ key: MachineKey) throws -> MachineInstanceRecord?

    /// Writes `commit` in this transaction when the instance is at its expected version and its
    /// event id is new (see ``MachineStore/commit(_:)``).
    func commit(_ commit: MachineCommit) throws -> MachineCommitResult
}
