import Foundation
import Testing

/// `behaviorkit journal retry|cancel --filter`: the bulk actions on a SQLite journal of one
/// failed `garage` run (a failed command, a compensated transaction).
struct JournalBulkCommandTests {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("JournalBulkCommandTests-\(UUID().uuidString).sqlite").path

    func removeJournal() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test func retryFilterDeadRetriesTheDeadLettersOnly() throws {
        defer { removeJournal() }
        #expect(try CLIRunner.run(["garage", "--fail-api", "--journal", path]).exitCode == 0)
        let retried = try CLIRunner.run(["journal", "retry", path, "--filter", "dead", "--yes"])
        #expect(retried.exitCode == 0)
        #expect(
            retried.standardOutput == """
                #2 pending     run1/1  garage.addToAPI
                retried 1 record

                """)
        let paged = try CLIRunner.run([
            "journal", "retry", path, "--filter", "status=compensated", "--filter", "key-prefix=run1/", "--limit", "1",
            "-y",
        ])
        #expect(
            paged.standardOutput == """
                #5 pending     run1/4  behaviorkit.transaction
                retried 1 record

                """)
        let cancelled = try CLIRunner.run([
            "journal", "cancel", path, "--filter", "key-prefix=run1/", "--reason", "bad deploy", "--yes",
        ])
        #expect(cancelled.exitCode == 0)
        #expect(cancelled.standardOutput.hasSuffix("cancelled 2 records\n"), "\(cancelled.standardOutput)")
    }

    @Test func aBadFilterIsAnErrorNamingIt() throws {
        defer { removeJournal() }
        #expect(try CLIRunner.run(["garage", "--fail-api", "--journal", path]).exitCode == 0)
        let bogus = try CLIRunner.run(["journal", "retry", path, "--filter", "bogus=1"])
        #expect(bogus.exitCode == 64)
        #expect(bogus.standardError.hasPrefix("Error: --filter 'bogus=1' is not a term: use dead, status=S"))
        let both = try CLIRunner.run(["journal", "cancel", path, "run1/1", "--filter", "dead"])
        #expect(both.standardError.hasPrefix("Error: give a KEY ('run1/1') or --filter terms, not both"))
        let settled = try CLIRunner.run(["journal", "cancel", path, "--filter", "status=done", "--yes"])
        #expect(settled.exitCode == 1)
        #expect(settled.standardError == "error: cancel acts on pending records, and the filter lists only done ones\n")
    }
}
