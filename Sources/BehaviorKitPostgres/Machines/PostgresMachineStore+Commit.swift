import BehaviorKitSync
import Commands
public import DurableMachines
public import PostgresNIO

extension PostgresMachineStore {
    /// Commits `commit` in one transaction, when the instance is at `commit.expectedVersion` and
    /// no step of it has the commit's event id; see `MachineStore.commit(_:)`. Commits arriving
    /// together from many tasks go to the server as one call of the commit function; each is
    /// answered once its batch committed (durable, as the server's `synchronous_commit` says).
    ///
    /// - Throws: ``PostgresStoreError``: `.invalidValue` for text holding U+0000 or a
    ///   step whose sequence is not the expected version plus one; `.closed`, `.unreachable`,
    ///   `.outcomeUnknown` and the server's refusals.
    public func commit(_ commit: MachineCommit) async throws -> MachineCommitResult {
        try committer.validate(commit)
        do {
            try connections.enter()
            defer { connections.leave() }
            return try await commits.submit(commit)
        } catch let error as CommandJournalError {
            throw error
        } catch {
            throw storeError(error)
        }
    }
}

extension PostgresMachineStore {
    /// Commits `commit` on `connection`, in the transaction its caller opened there, so that the
    /// app's own writes and the step commit together or not at all.
    ///
    /// ```swift
    /// try await client.withTransaction(logger: logger) { connection in
    ///     try await connection.query("UPDATE stock SET count = count - 1 WHERE sku = \(sku)", logger: logger)
    ///     guard try await store.commit(step, on: connection) == .committed else { throw Retry() }
    /// }
    /// ```
    ///
    /// The checks are the same as ``commit(_:)``'s: the instance's row stays locked until that
    /// transaction ends, and a `.versionConflict` or `.duplicateEvent` wrote nothing of the step,
    /// so the caller should roll back its own writes then. The connection must reach the
    /// store's database. Run the transaction at READ COMMITTED (PostgreSQL's default): at
    /// REPEATABLE READ or SERIALIZABLE, a commit that races another on its key fails with the
    /// server's serialization failure (`.queryFailed`, SQLSTATE 40001) rather than a conflict.
    ///
    /// A store that shares the journal's database (a ``PostgresStore``'s view) enqueues the
    /// commit's `MachineCommit.commands` in that transaction too, after a savepoint: when the
    /// journal refuses one (its key taken by another command), nothing of the step is written.
    ///
    /// - Throws: ``PostgresStoreError``: `.invalidValue` (also for a command the journal refused,
    ///   naming why), `.queryFailed`, `.ioFailed`.
    public func commit(
        _ commit: MachineCommit, on connection: PostgresConnection
    ) async throws(PostgresStoreError) -> MachineCommitResult {
        try committer.validate(commit)
        let enqueues = committer.journal != nil && !commit.commands.isEmpty
        let logger = connections.logger
        do {
            if enqueues { try await connection.rowsWhileOpen("SAVEPOINT behaviorkit_step", logger: logger) }
            let called = try await committer.call(
                PostgresMachineCommitArguments([commit]), count: 1, on: connection, .inTransaction
            ).value
            let answers = try await committer.enqueue([commit], called, on: connection, prepared: false)
            guard let answer = answers.first ?? nil else {
                throw connections.names.error(.ioFailed, "the commit function gave no answer")
            }
            if case .failure(let refusal) = answer {
                try await connection.rowsWhileOpen("ROLLBACK TO SAVEPOINT behaviorkit_step", logger: logger)
                throw committer.invalid("the journal refused a command of the step on \(commit.key): \(refusal)")
            }
            return try answer.get()
        } catch {
            throw storeError(error)
        }
    }
}
