import BehaviorKitSync
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import BehaviorKitPostgres

/// The writes' transactions: run again when the connection was lost before they committed, and
/// their outcome asked of the server when it was lost while they did.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresJournalTransactionTests {
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    @Test func aTransactionLostBeforeItsCommitRunsAgainAndWritesOnce() async throws {
        let journals = try await OpenJournals("lostbefore")
        let journal = try await journals.open()
        let database = journals.database
        try await journals.cluster.psql("CREATE TABLE marks (run int)", database: database)
        let runs = LockedValue(0)
        let cluster = journals.cluster
        let answer = try await withTimeLimit(.seconds(60)) {
            try await journal.connections.inResolvedTransaction { connection in
                let run = runs.withLock {
                    $0 += 1
                    return $0
                }
                try await connection.query("INSERT INTO marks VALUES (\(run))", logger: self.logger)
                if run == 1 {  // the first run loses its connection before its COMMIT
                    _ = try await PostgresTestCluster.offThread { try cluster.terminateBackends(database: database) }
                    try await connection.query("SELECT 1", logger: self.logger)
                }
                return run
            }
        }
        #expect(answer == 2)
        let marks = try await journals.cluster.psql("SELECT string_agg(run::text, ',') FROM marks", database: database)
        #expect(marks.trimmingCharacters(in: .whitespacesAndNewlines) == "2", "only the second run wrote")
        await journals.closeAll()
    }

    /// A claim's batch (`JournalWrite.isLosable`) is one statement in its implicit transaction:
    /// its row is there for another connection before the call answers; a lost connection runs
    /// it again, and what the lost run wrote stays.
    @Test func aLosableStatementCommitsAloneAndRunsAgainWhenItsConnectionIsLost() async throws {
        let journals = try await OpenJournals("losable")
        let journal = try await journals.open()
        let database = journals.database
        let cluster = journals.cluster
        try await cluster.psql("CREATE TABLE marks (run int)", database: database)
        let seenAlone = LockedValue<[Bool]>([])
        let answer = try await journals.losingTheFirstConnection(of: journal) { connection, run in
            try await connection.query("INSERT INTO marks VALUES (\(run))", logger: self.logger)
            let seen = try await cluster.psql("SELECT count(*) FROM marks WHERE run = \(run)", database: database)
            seenAlone.withLock { $0.append(seen.trimmingCharacters(in: .whitespacesAndNewlines) == "1") }
            return run
        }
        #expect(answer == 2)
        #expect(seenAlone.withLock { $0 } == [true, true], "each run's statement committed as it ran")
        let marks = try await cluster.psql(
            "SELECT string_agg(run::text, ',' ORDER BY run) FROM marks", database: database)
        #expect(marks.trimmingCharacters(in: .whitespacesAndNewlines) == "1,2", "the lost run's write stays")
        await journals.closeAll()
    }

    @Test func theServerTellsWhetherATransactionCommitted() async throws {
        let journals = try await OpenJournals("txstatus")
        let journal = try await journals.open()
        let logger = self.logger
        // A committed transaction, a rolled-back one, and an id the server never gave out.
        @Sendable func begin(_ connection: PostgresConnection) async throws -> PostgresJournalConnections.Transaction {
            try await connection.query("BEGIN", logger: logger)
            let row = try #require(
                try await connection.query(
                    "SELECT txid_current(), pg_backend_pid(), pg_postmaster_start_time()::text", logger: logger
                ).collect().first)
            let (id, backend, started) = try row.decode((Int64, Int32, String).self)
            return .init(id: id, backend: backend, serverStarted: started)
        }
        let connections = journal.connections
        let states = try await withTimeLimit(.seconds(60)) { () async throws -> [String?] in
            let committed = try await connections.withConnection { connection in
                let transaction = try await begin(connection)
                try await connection.query("COMMIT", logger: logger)
                return transaction
            }
            let aborted = try await connections.withConnection { connection in
                let transaction = try await begin(connection)
                try await connection.query("ROLLBACK", logger: logger)
                return transaction
            }
            return try await connections.withConnection { connection in
                var states: [String?] = []
                for transaction in [committed, aborted] {
                    states.append(
                        try await PostgresJournalConnections.status(of: transaction, on: connection, logger: logger)
                            .state)
                }
                var future = committed
                future.id += 1_000_000
                states.append(
                    try await PostgresJournalConnections.status(of: future, on: connection, logger: logger).state)
                return states
            }
        }
        #expect(states == ["committed", "aborted", "aborted"])
        await journals.closeAll()
    }

    /// A write its caller gave up on (a lease's watchdog cancels the work under a lease that may
    /// lapse) ends on its own connection: it is rolled back, never committed, and the connection
    /// goes back to the pool out of any transaction. Closing it instead made every cancellation
    /// cost a new backend, and the fleet with 100 ms leases spent the server on connecting.
    @Test func aTransactionGivenUpOnIsRolledBackAndItsConnectionKept() async throws {
        let journals = try await OpenJournals("givenup")
        let journal = try await journals.open()
        let database = journals.database
        let cluster = journals.cluster
        try await cluster.psql("CREATE TABLE marks (run int)", database: database)
        let connections = journal.connections
        let logger = self.logger
        let backend = LockedValue<Int32?>(nil)
        try await withTimeLimit(.seconds(60)) {
            let write = Task {
                try await connections.inResolvedTransaction { connection in
                    try await connection.query("INSERT INTO marks VALUES (1)", logger: logger)
                    let rows = try await connection.query("SELECT pg_backend_pid()", logger: logger).collect()
                    backend.withLock { $0 = try? rows.first?.decode(Int32.self) }
                    try await connection.query("SELECT pg_sleep(0.5)", logger: logger)
                }
            }
            var pid: Int32?
            while pid == nil {
                try await Task.sleep(for: .milliseconds(10))
                pid = backend.withLock { $0 }
            }
            write.cancel()
            await #expect(throws: PostgresStoreError.self) { try await write.value }
            // The backend is kept; once the sleep ends it is idle, out of any transaction.
            var state = ""
            for _ in 0..<200 where state != "idle" {
                try await Task.sleep(for: .milliseconds(25))
                state = try await cluster.psql(
                    "SELECT coalesce((SELECT state FROM pg_stat_activity WHERE pid = \(pid ?? 0)), 'gone')",
                    database: database
                ).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            #expect(state == "idle", "the given-up request's backend is \(state)")
            let marks = try await cluster.psql("SELECT count(*) FROM marks", database: database)
            #expect(marks.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "the given-up write committed")
        }
        await journals.closeAll()
    }

    /// A COMMIT whose answer was lost: committed, its answer stands; rolled back, it runs again;
    /// still in progress (its backend has not noticed), its backend is terminated, then it is
    /// rolled back.
    @Test func aLostCommitIsResolvedByAskingTheServer() async throws {
        let journals = try await OpenJournals("resolve")
        let journal = try await journals.open()
        let connections = journal.connections
        let logger = self.logger
        try await withTimeLimit(.seconds(60)) {
            let deadline = ContinuousClock.now.advanced(by: .seconds(10))
            let committed = try await connections.withConnection { connection in
                let transaction = try await Self.begin(connection, logger)
                try await connection.query("COMMIT", logger: logger)
                return transaction
            }
            let answer = try await connections.resolve(committed, "answer", until: deadline, cause: "lost")
            #expect(answer == "answer")

            // A transaction left open on a connection that waits, as a backend that has not noticed
            // its client went away.
            let held = LockedValue<PostgresJournalConnections.Transaction?>(nil)
            let release = LockedValue(false)
            let holder = Task {
                try await connections.withConnection { connection in
                    let transaction = try await Self.begin(connection, logger)
                    held.withLock { $0 = transaction }
                    while !release.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                }
            }
            var open: PostgresJournalConnections.Transaction?
            while open == nil {
                try await Task.sleep(for: .milliseconds(10))
                open = held.withLock { $0 }
            }
            let inProgress = try #require(open)
            do throws(AttemptFailure) {
                _ = try await connections.resolve(inProgress, "answer", until: deadline, cause: "lost")
                Issue.record("a transaction in progress was taken for committed")
            } catch {
                guard case .retry(let reason) = error else {
                    Issue.record("not tried again: \(error)")
                    return
                }
                #expect(reason.contains("rolled back"), "\(reason)")
            }
            release.withLock { $0 = true }
            _ = await holder.result
        }
        await journals.closeAll()
    }

    static func begin(
        _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> PostgresJournalConnections.Transaction {
        try await connection.query("BEGIN", logger: logger)
        let rows = try await connection.query(
            "SELECT txid_current(), pg_backend_pid(), pg_postmaster_start_time()::text", logger: logger
        ).collect()
        let row = try #require(rows.first)
        let (id, backend, started) = try row.decode((Int64, Int32, String).self)
        return .init(id: id, backend: backend, serverStarted: started)
    }
}
