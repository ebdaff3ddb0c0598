import BehaviorKitPostgres
import BehaviorKitSync
import BehaviorKitTesting
import Commands
import Foundation
import Logging
import PostgresNIO
import Testing

/// Priorities on PostgreSQL through the store's own ways in: enqueue on the application's
/// connection inside its transaction, a table made before priorities (opening adds the column),
/// and the SQL enqueue function with a priority.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresPriorityTests {
    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// Runs `body` with a client of `journals`' database.
    static func withClient<T: Sendable>(
        _ journals: OpenJournals, _ body: @Sendable (PostgresClient) async throws -> T
    ) async throws -> T {
        let client = PostgresClient(
            configuration: .init(
                unixSocketPath: "\(journals.cluster.folder)/.s.PGSQL.\(journals.cluster.port)", username: "postgres",
                password: nil, database: journals.database))
        let running = Task { await client.run() }
        defer { running.cancel() }
        return try await body(client)
    }

    @Test func conforms() async throws {
        let journals = try await OpenJournals("priorities")
        let logger = Self.logger
        let result: Result<Void, any Error>
        do {
            try await CommandJournalConformance.checkPriorities(
                of: .init(
                    enqueueInTransaction: { clock, job, queue in
                        let journal = try await journals.open(clock: clock)
                        let record = try await Self.withClient(journals) { client in
                            try await client.withTransaction(logger: logger) { connection in
                                try await journal.enqueue(
                                    job.entry, queue: queue, after: job.delay, priority: job.priority,
                                    on: connection)
                            }
                        }
                        return (journal, record)
                    },
                    journalOverPreviousSchema: { clock, entry, queue in
                        let table = journals.newTable()
                        let created = try await journals.open(table: table, clock: clock)
                        await created.close()
                        // The table as the release before priorities left it.
                        let payload = entry.payload.map { String(format: "%02x", $0) }.joined()
                        _ = try await journals.cluster.psql(
                            """
                            DROP INDEX "\(table)_open_priority";
                            ALTER TABLE "\(table)" DROP COLUMN priority;
                            INSERT INTO "\(table)" (key, kind, payload, status, lease_expires_at, queue, attempts,
                                created_at, updated_at)
                            VALUES ('\(entry.idempotencyKey)', '\(entry.kind)', decode('\(payload)', 'hex'), 'pending',
                                0, '\(queue)', 0, 0, 0);
                            """, database: journals.database)
                        return try await journals.open(table: table, clock: clock)
                    }))
            result = .success(())
        } catch {
            result = .failure(error)
        }
        await journals.closeAll()
        try result.get()
    }

    @Test func theSQLEnqueueFunctionTakesAPriority() async throws {
        let journals = try await OpenJournals("sqlpriority")
        let table = journals.newTable()
        let journal = try await journals.open(table: table)
        _ = try await journals.cluster.psql(
            """
            SELECT sequence FROM "\(table)_enqueue"('plain', 'k', '{}', 'q');
            SELECT sequence FROM "\(table)_enqueue"('delayed', 'k', '{}', 'q', delay => interval '0');
            SELECT sequence FROM "\(table)_enqueue"('urgent', 'k', '{}', 'q', interval '0', 7);
            SELECT sequence FROM "\(table)_enqueue"('background', 'k', '{}', 'q', interval '0', -7);
            """, database: journals.database)
        let lease = JournalLease(owner: "w", duration: .seconds(30))
        let claimed = try await journal.claim(10, from: "q", concurrency: nil, lease: lease).records
        #expect(claimed.map(\.id) == ["urgent", "plain", "delayed", "background"])
        #expect(claimed.map(\.priority) == [7, 0, 0, -7])
        await journals.closeAll()
    }
}
