import Commands
import Logging
import PostgresNIO

/// Group commit on PostgreSQL: the writes that arrived together run in one transaction on one
/// pooled connection (`BEGIN`, a statement each, `COMMIT`: one WAL flush for the lot), and
/// each caller is answered once it committed.
///
/// A caller's own refusal (a conflict, a lost lease) changes nothing and is its answer alone.
/// A statement the server refuses aborts the transaction: it is rolled back, that caller gets
/// the error, and the others' writes run again in a new transaction. A deadlock with another
/// process, or a connection lost before `COMMIT` was sent, runs the whole batch again; a
/// connection lost during `COMMIT` fails every caller with `.ioFailed` (it may have committed).
extension PostgresJournalWriter {
    typealias Answer = Result<PostgresJournalWriteResult, any Error>

    enum BatchOutcome: Sendable {
        /// Committed (or, for a lone write, run on its own): every answer.
        case committed([Answer])
        /// The write at this position was refused by the server; the batch rolled back.
        case refused(Int, any Error)
        /// Rolled back by a deadlock or a lost connection before `COMMIT`: run it again.
        case retry(any Error)
        /// The outcome is unknown (the connection was lost during `COMMIT`, or during a lone
        /// write): every caller gets this error.
        case unknown(any Error)
    }

    /// How often a batch runs again after deadlocks or lost connections before it fails.
    static let batchRetries = 5

    func commit(_ writes: [PostgresJournalWrite], _ connections: PostgresJournalConnections) async -> [Answer] {
        var answers = [Answer?](repeating: nil, count: writes.count)
        var pending = Array(writes.indices)
        var retries = 0
        while !pending.isEmpty {
            let batch = pending.map { writes[$0] }
            let outcome: BatchOutcome
            do {
                outcome = try await connections.withConnectionPastTheGate { connection in
                    await self.run(batch, on: connection)
                }
            } catch {
                outcome = .unknown(error)
            }
            switch outcome {
            case .committed(let results):
                for (index, result) in zip(pending, results) { answers[index] = result }
                pending = []
            case .refused(let position, let error):
                answers[pending[position]] = .failure(error)
                pending.remove(at: position)
            case .retry(let error):
                retries += 1
                guard retries > Self.batchRetries else { continue }
                for index in pending { answers[index] = .failure(error) }
                pending = []
            case .unknown(let error):
                for index in pending { answers[index] = .failure(error) }
                pending = []
            }
        }
        return answers.map { $0 ?? .failure(names.error(.ioFailed, "the write was not answered")) }
    }

    /// Runs `writes` on `connection`: in a transaction unless it is one write of one statement.
    func run(_ writes: [PostgresJournalWrite], on connection: PostgresConnection) async -> BatchOutcome {
        let transaction = writes.count > 1 || writes.contains { $0.needsTransaction }
        if transaction {
            do {
                try await connection.query("BEGIN", logger: logger)
            } catch {
                return .retry(names.error(error))
            }
        }
        var results: [Answer] = []
        results.reserveCapacity(writes.count)
        for (position, write) in writes.enumerated() {
            do {
                results.append(.success(try await apply(write, on: connection)))
            } catch let error as CommandJournalError {
                results.append(.failure(error))  // this caller's answer; nothing was written for it
            } catch {
                return await abandon(position, error, transaction: transaction, on: connection)
            }
        }
        guard transaction else { return .committed(results) }
        do {
            try await connection.query("COMMIT", logger: logger)
        } catch {
            if let state = Self.sqlState(error), ["40001", "40P01"].contains(state) {
                return .retry(names.error(error))
            }
            return .unknown(names.error(error))
        }
        return .committed(results)
    }

    /// Rolls back after the write at `position` failed, and says what the batch does next.
    private func abandon(
        _ position: Int, _ error: any Error, transaction: Bool, on connection: PostgresConnection
    ) async -> BatchOutcome {
        let state = Self.sqlState(error)
        if transaction, state != nil || error is PostgresCommandJournalError {
            _ = try? await connection.query("ROLLBACK", logger: logger)
        }
        switch state {
        case "40001", "40P01": return .retry(names.error(error))
        case nil where !(error is PostgresCommandJournalError):
            // The connection failed: a transaction not committed rolled back; a lone write may have run.
            return transaction ? .retry(names.error(error)) : .unknown(names.error(error))
        case let state? where state.hasPrefix("08") || state.hasPrefix("57"):
            return transaction ? .retry(names.error(error)) : .unknown(names.error(error))
        default: return .refused(position, names.error(error))
        }
    }

    /// The SQLSTATE of a server's refusal.
    static func sqlState(_ error: any Error) -> String? {
        guard let error = error as? PSQLError, error.code == .server else { return nil }
        return error.serverInfo?[.sqlState]
    }
}
