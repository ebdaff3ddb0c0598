import Commands
import Logging
import PostgresNIO

/// Group commit on PostgreSQL: the writes that arrived together go to the server as one call of
/// the batch function, on one pooled connection: one statement, one transaction, one WAL
/// flush. Each caller is answered once it committed.
///
/// A caller's own refusal (a conflict, a lost lease) changes nothing and is its answer alone.
/// When the server refuses the call (a value it cannot store), nothing of it was written: each
/// write then runs alone, so that only the write at fault fails. A deadlock with another
/// process runs the batch again. A connection lost during the call (a restart, a terminated
/// backend, an outage) is ridden out by the connections: a batch of begins, claims, lease
/// renewals, enqueues, appends and settlements (a transaction's too) runs in its statement's
/// own transaction, answered once its commit is confirmed (`ImplicitCommit`), and again on a new
/// connection when its connection is lost:
/// each gives the same answer run again (`JournalWrite.isLosable`). A batch with a release or a
/// prune runs in a transaction whose fate is read back with `txid_status` on a new connection,
/// and runs again only if it did not commit; when that cannot be told before the journal's
/// reconnection deadline, every caller gets `.outcomeUnknown` (`PostgresCommandJournal.Reconnection`).
extension PostgresJournalWriter {
    func commit(
        _ writes: [JournalWrite], _ connections: PostgresJournalConnections
    ) async -> [Result<JournalWriteOutcome, any Error>] {
        let bindings: PostgresBindings
        do {
            bindings = try self.bindings(writes)
        } catch {
            let error = names.error(error)
            return writes.map { _ in .failure(error) }
        }
        return await PostgresBatchCall.run(
            writes.count, on: connections, names,
            identified: { connection, run in
                try await self.call(writes.count, bindings, on: connection, run)
            },
            losable: writes.allSatisfy(\.isLosable),
            answered: { answers in zip(writes, answers).map { write, rows in Result { try result(of: write, rows) } } },
            alone: {
                var results: [Result<JournalWriteOutcome, any Error>] = []
                for write in writes { results += await commit([write], connections) }
                return results
            },
            failed: { state, error in
                logger.error(
                    "journal commit failed",
                    metadata: ["writes": "\(writes.count)", "sqlstate": "\(state ?? "-")", "error": "\(error)"])
                return writes.map { _ in .failure(error) }
            })
    }

    /// The SQLSTATE of a server's refusal.
    static func sqlState(_ error: any Error) -> String? {
        guard let error = error as? PSQLError, error.code == .server else { return nil }
        return error.serverInfo?[.sqlState]
    }

    /// Whether the SQLSTATE says the connection or the server failed, rather than the request.
    static func isConnectionState(_ state: String) -> Bool {
        state.hasPrefix("08") || state.hasPrefix("57") || state.hasPrefix("53")
    }
}
