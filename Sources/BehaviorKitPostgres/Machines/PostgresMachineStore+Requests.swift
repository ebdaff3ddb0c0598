import PostgresNIO

extension PostgresMachineStore {
    /// Runs `body`, a read, on a pooled connection: tried again on a new connection when the
    /// server went away, until the reconnection deadline.
    func read<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(PostgresStoreError) -> T {
        do {
            return try await connections.withConnection(body)
        } catch {
            throw storeError(error)
        }
    }

    /// Runs `body`, a write, past the gate ``close()`` shuts: in a transaction whose outcome is
    /// resolved when its connection is lost while it commits (unless the reconnection policy
    /// turned that off), as the journal's batches run.
    func write<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(PostgresStoreError) -> T {
        do {
            try connections.enter()
            defer { connections.leave() }
            return try await connections.withConnectionPastTheGate(body)
        } catch {
            throw storeError(error)
        }
    }

    /// The rows `statement` answers to `bindings`, each made into a record by `record`: read on
    /// a pooled connection as ``read(_:)`` does, or written past the gate as ``write(_:)`` does
    /// when `writes`.
    func rows<Record: Sendable>(
        _ statement: PreparedJournalStatement.Text, _ bindings: PostgresBindings, writes: Bool = false,
        _ record: @escaping @Sendable (PostgresJournalRow) throws -> Record
    ) async throws(PostgresStoreError) -> [Record] {
        let (names, logger) = (connections.names, connections.logger)
        let body: @Sendable (PostgresConnection) async throws -> [Record] = { connection in
            try await connection.run(statement, bindings, logger: logger).map {
                try record(PostgresJournalRow($0, names))
            }
        }
        return writes ? try await write(body) : try await read(body)
    }

    /// `error` as the store throws it.
    func storeError(_ error: any Error) -> PostgresStoreError {
        if let error = error as? PostgresStoreError { return error.asMachineStore }
        return connections.names.error(error).asMachineStore
    }

    /// `limit` as a statement's `LIMIT`: never negative.
    static func limit(_ limit: Int) -> Int64 { Int64(clamping: max(0, limit)) }
}
