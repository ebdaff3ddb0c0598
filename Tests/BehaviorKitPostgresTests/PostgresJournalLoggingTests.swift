import BehaviorKitPostgres
import Commands
import InMemoryLogging
import Logging
import Testing

/// What the journal's `logger:` hears: its opening, and a commit the server refused, each
/// naming the journal.
@Suite(.enabled(if: PostgresAvailability.isAvailable, PostgresAvailability.skipped))
struct PostgresJournalLoggingTests {
    @Test func theOpeningAndAFailedCommitAreLoggedNamingTheJournal() async throws {
        let journals = try await OpenJournals("logging")
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in logs }
        logger.logLevel = .debug
        let table = journals.newTable()
        let journal = try await PostgresCommandJournal(url: journals.url, table: table, logger: logger)
        let opened = logs.entries.first { $0.message.description == "journal opened" }
        #expect(opened?.metadata["journal"]?.description.hasSuffix("/\(journals.database)/\(table)") == true)

        _ = try await journals.cluster.psql("DROP TABLE \(table) CASCADE", database: journals.database)
        let lease = JournalLease(owner: "w", duration: .seconds(30))
        await #expect(throws: PostgresStoreError.self) {
            _ = try await journal.begin(entry("k"), lease: lease)
        }
        let failed = try #require(logs.entries.first { $0.message.description == "journal commit failed" })
        #expect(failed.level == .error && failed.metadata["writes"] == "1")
        #expect(failed.metadata["sqlstate"]?.description.count == 5, "the server's SQLSTATE: \(failed.metadata)")
        #expect(failed.metadata["error"]?.description.contains("journal \(table) in database") == true)
        await journal.close()
    }
}
