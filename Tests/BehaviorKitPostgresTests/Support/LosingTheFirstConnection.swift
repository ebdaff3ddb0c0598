import BehaviorKitSync
import Logging
import PostgresNIO
import Testing

@testable import BehaviorKitPostgres

extension OpenJournals {
    /// Runs `statement` as the journal runs a losable write (one statement in its own
    /// transaction, run again when its connection is lost), losing the first run's connection
    /// after its statement committed: `statement` is given each run's number, from 1; the answer
    /// is the caller's, from the run after the lost one.
    func losingTheFirstConnection<T: Sendable>(
        of journal: PostgresCommandJournal,
        _ statement: @escaping @Sendable (PostgresConnection, Int) async throws -> T
    ) async throws -> T {
        let cluster = self.cluster
        let database = self.database
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let runs = LockedValue(0)
        return try await withTimeLimit(.seconds(60)) {
            try await journal.connections.withConnectionPastTheGate(
                identified: { connection, run in
                    #expect(run == .alone, "a losable statement runs alone and does not ask its transaction's id")
                    let run = runs.withLock {
                        $0 += 1
                        return $0
                    }
                    let answer = try await statement(connection, run)
                    if run == 1 {  // committed; the connection is lost before the caller has the answer
                        _ = try await PostgresTestCluster.offThread {
                            try cluster.terminateBackends(database: database)
                        }
                        try await connection.query("SELECT 1", logger: logger)
                    }
                    return .unidentified(answer)
                }, losable: true)
        }
    }
}
