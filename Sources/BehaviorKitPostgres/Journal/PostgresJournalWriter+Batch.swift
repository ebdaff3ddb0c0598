import Commands
import Logging
import PostgresNIO

/// Group commit on PostgreSQL: the writes that arrived together go to the server as one call of
/// the batch function, on one pooled connection: one round trip, one transaction, one WAL
/// flush. Each caller is answered once it committed.
///
/// A caller's own refusal (a conflict, a lost lease) changes nothing and is its answer alone.
/// When the server refuses the call (a value it cannot store), nothing of it was written: each
/// write then runs alone, so that only the write at fault fails. A deadlock with another
/// process runs the batch again. A connection lost during the call (a restart, a terminated
/// backend, an outage) is ridden out by the connections: the batch runs in a transaction whose
/// fate is read back with `txid_status` on a new connection, and runs again only if it did not
/// commit; when that cannot be told before the journal's reconnection deadline, every caller
/// gets `.outcomeUnknown` (`PostgresCommandJournal.Reconnection`).
extension PostgresJournalWriter {
    /// How often a batch runs again after deadlocks before it fails.
    static let batchRetries = 5

    /// What one call gave: every write's rows, or the server's refusal.
    enum CallOutcome: Sendable {
        case answered([[Answer]])
        case failed(sqlState: String?, PostgresStoreError)
    }

    func commit(
        _ writes: [JournalWrite], _ connections: PostgresJournalConnections
    ) async -> [Result<JournalWriteOutcome, any Error>] {
        var retries = 0
        while true {
            let outcome: CallOutcome
            do {
                outcome = try await connections.withConnectionPastTheGate { connection in
                    do {
                        return .answered(try await self.call(writes, on: connection))
                    } catch {
                        return .failed(sqlState: Self.sqlState(error), names.error(error))
                    }
                }
            } catch {
                outcome = .failed(sqlState: nil, names.error(error))
            }
            switch outcome {
            case .answered(let answers):
                return zip(writes, answers).map { write, rows in Result { try result(of: write, rows) } }
            case .failed(let state?, _) where ["40001", "40P01"].contains(state) && retries < Self.batchRetries:
                retries += 1
            case .failed(let state?, _) where writes.count > 1 && !Self.isConnectionState(state):
                var results: [Result<JournalWriteOutcome, any Error>] = []
                for write in writes { results += await commit([write], connections) }
                return results
            case .failed(let state, let error):
                logger.error(
                    "journal commit failed",
                    metadata: ["writes": "\(writes.count)", "sqlstate": "\(state ?? "-")", "error": "\(error)"])
                return writes.map { _ in .failure(error) }
            }
        }
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
