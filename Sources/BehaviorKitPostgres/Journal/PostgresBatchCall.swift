import PostgresNIO

/// One call of a batch function — the journal's (``PostgresJournalWriter``) or the machine
/// store's (``PostgresMachineCommitter``) — on a connection past the gate, and what follows a
/// refusal: a deadlock or a serialization failure runs the batch again; any other refusal of a
/// batch of more than one (nothing of it was written) runs each of its items alone, so that only
/// the one at fault fails; a lost connection is ridden out by the connections.
enum PostgresBatchCall {
    /// How often a batch runs again after deadlocks before it fails.
    static let retries = 5

    /// What one call gave: its answers, or the server's refusal.
    private enum Outcome<Answers: Sendable>: Sendable {
        case answered(Answers)
        case failed(sqlState: String?, PostgresStoreError)
    }

    /// Calls `call` for a batch of `count` items until it answers or fails for good; `names`
    /// name the store in its errors. `call` reads its transaction's identity with its own
    /// statement when asked to (`nil`: it gave no row; ``PostgresJournalConnections/Identified``).
    /// Answers that `refuses` rolls the transaction back (nothing of the batch is written).
    /// `oneStatement` false: `call` may run more than one statement, which then run in one
    /// transaction even when lost commits are not resolved. `losable`: a commit of the batch may
    /// be lost without harm, and its fate is not asked
    /// (`PostgresJournalConnections.withConnectionPastTheGate(identified:oneStatement:losable:)`).
    ///
    /// - Returns: `answered` of what the call gave; `alone()` when the server refused a batch
    ///   of more than one, not for its connection, or `refuses` its answers; otherwise `failed`
    ///   of the SQLSTATE (if the server gave one) and the error.
    static func run<Answers: Sendable, Results>(
        _ count: Int, on connections: PostgresJournalConnections, _ names: PostgresJournalNames,
        identified call:
            @escaping @Sendable (_ connection: PostgresConnection, _ run: PostgresJournalConnections.Run) async throws
            -> (
                value: Answers, transaction: PostgresJournalConnections.Transaction?
            ),
        refuses: @escaping @Sendable (Answers) -> Bool = { _ in false }, oneStatement: Bool = true,
        losable: Bool = false,
        answered: (Answers) -> Results, alone: () async -> Results,
        failed: (_ sqlState: String?, PostgresStoreError) -> Results
    ) async -> Results {
        var retries = 0
        while true {
            let outcome: Outcome<Answers>
            do {
                outcome = try await connections.withConnectionPastTheGate(
                    identified: { connection, run in
                        do {
                            let answer = try await call(connection, run)
                            if refuses(answer.value) { return .refused(.answered(answer.value)) }
                            guard let transaction = answer.transaction else {
                                return .unidentified(.answered(answer.value))
                            }
                            return .identified(.answered(answer.value), transaction)
                        } catch  where !PostgresJournalNames.isConnectionLoss(error) {
                            return .refused(
                                .failed(sqlState: PostgresJournalWriter.sqlState(error), names.error(error)))
                        }
                    }, oneStatement: oneStatement, losable: losable)
            } catch {
                outcome = .failed(sqlState: nil, names.error(error))
            }
            switch outcome {
            case .answered(let answers) where count > 1 && refuses(answers):
                return await alone()
            case .answered(let answers):
                return answered(answers)
            case .failed(let state?, _) where ["40001", "40P01"].contains(state) && retries < Self.retries:
                retries += 1
            case .failed(let state?, _) where count > 1 && !PostgresJournalWriter.isConnectionState(state):
                return await alone()
            case .failed(let state, let error):
                return failed(state, error)
            }
        }
    }
}
