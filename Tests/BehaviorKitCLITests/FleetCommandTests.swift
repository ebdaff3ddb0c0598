import Foundation
import Testing

/// `behaviorkit fleet`, as the README and CI run it: worker processes share one journal and
/// queue, are killed with SIGKILL at random and restarted, and every promise is checked (each
/// order settled exactly once, no step run twice, no claim overlapping, a transaction's steps
/// agreeing with it). Small runs here; CI runs 2,000 orders and 50 kills on each journal.
@Suite struct FleetCommandTests {
    @Test func workersKilledAtRandomKeepEveryPromiseOnSQLite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.expectAClean(journal: folder + "/journal.sqlite", directory: folder + "/run")
    }

    @Test(
        .enabled(
            if: BuildTraits.postgreSQLUnavailableReason == nil, "skipped: no PostgreSQL here, or no PostgreSQL trait"))
    func workersKilledAtRandomKeepEveryPromiseOnPostgreSQL() throws {
        let cluster = try PostgresTestCluster.shared()
        let url = cluster.url(database: try cluster.makeDatabase("fleet"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.expectAClean(journal: url, directory: folder + "/run")
    }

    private static func expectAClean(journal: String, directory: String) throws {
        let result = try CLIRunner.run([
            "fleet", "--workers", "3", "--orders", "150", "--kills", "5", "--seed", "7", "--journal", journal,
            "--directory", directory,
        ])
        #expect(result.exitCode == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(
            result.standardOutput.contains("5 kills, 0 pauses, 0 database faults, 150 acknowledged"),
            "\(result.standardOutput)")
        #expect(result.standardOutput.hasSuffix("; 0 violations\n"), "\(result.standardOutput)")
    }
}
