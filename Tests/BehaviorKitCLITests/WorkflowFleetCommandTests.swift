import Foundation
import GRDB
import Testing

/// `behaviorkit workflow-fleet`: durable workflows run by worker processes that are killed,
/// paused and replaced by patched code, every promise checked; then the checks see each
/// promise broken in the files the run left. A small run here; CI runs 8 workers and 1,000
/// workflows on each journal.
@Suite struct WorkflowFleetCommandTests {
    @Test func killedPausedAndRedeployedWorkersKeepEveryPromiseAndTheChecksSeeEachBrokenOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "workflow-fleet-\(UUID().uuidString)"
        )
        .path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try CLIRunner.run([
            "workflow-fleet", "--workers", "2", "--workflows", "60", "--kills", "6", "--pause", "--lease-ms", "300",
            "--seed", "5", "--directory", folder,
        ])
        #expect(result.exitCode == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("deployed the patched code"), "\(result.standardOutput)")
        // Orders 7, 17, … 57 are refused by the carrier: their runs roll back.
        #expect(result.standardOutput.contains("60 started, 54 done, 6 compensated"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("60 children, 60 messages"), "\(result.standardOutput)")
        #expect(result.standardOutput.hasSuffix("; 0 violations\n"), "\(result.standardOutput)")

        try Self.breakEveryPromise(journal: folder + "/journal.sqlite", ledger: folder + "/ledger.sqlite")
        let check = try CLIRunner.run([
            "workflow-fleet", "--check-only", "--workflows", "60", "--directory", folder,
        ])
        #expect(check.exitCode == 1, "\(check.standardOutput)\(check.standardError)")
        for violation in [
            "wf-1/0 ran 2 times in one attempt", "wf-2 left the effects", "wf-3-pick did not end done",
            "wf-4 recorded neither code path", "wf-5's mailbox holds", "before its sleep's deadline",
            "wf-7 took its child's result 0 times", "left pending",
        ] {
            #expect(check.standardOutput.contains(violation), "\(violation): \(check.standardOutput)")
        }
    }

    @Test(
        .enabled(
            if: BuildTraits.postgreSQLUnavailableReason == nil, "skipped: no PostgreSQL here, or no PostgreSQL trait"))
    func killedPausedAndRedeployedWorkersKeepEveryPromiseOnPostgreSQL() throws {
        let cluster = try PostgresTestCluster.shared()
        let url = cluster.url(database: try cluster.makeDatabase("workflowfleet"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "workflow-fleet-\(UUID().uuidString)"
        )
        .path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try CLIRunner.run([
            "workflow-fleet", "--workers", "2", "--workflows", "60", "--kills", "6", "--pause", "--lease-ms", "300",
            "--seed", "6", "--journal", url, "--directory", folder,
        ])
        #expect(result.exitCode == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("60 started, 54 done, 6 compensated"), "\(result.standardOutput)")
        #expect(result.standardOutput.hasSuffix("; 0 violations\n"), "\(result.standardOutput)")
    }

    /// Alters what the run left so that each check has something to see.
    private static func breakEveryPromise(journal: String, ledger: String) throws {
        try DatabaseQueue(path: ledger).write { db in
            // A step run twice by one attempt; an effect gone.
            try db.execute(
                sql: """
                    INSERT INTO execution (key, root, worker, attempt, kind, started, ended)
                    SELECT key, root, worker, attempt, kind, started, ended FROM execution
                    WHERE key = 'wf-1/0' AND refused = 0 AND ended IS NOT NULL LIMIT 1
                    """)
            try db.execute(sql: "DELETE FROM effect WHERE key = 'wf-2/0'")
            // A shipment that started 10 s before its sleep's deadline.
            try db.execute(
                sql: "UPDATE execution SET started = started - 10000 WHERE key IN ('wf-6/6', 'wf-6/8')")
        }
        try DatabaseQueue(path: journal).write { db in
            // A child left pending; a run whose step was another; a payment left in its mailbox;
            // a parent that never took its child's result.
            try db.execute(sql: "UPDATE commandRecord SET status = 'pending' WHERE key = 'wf-3-pick'")
            try db.execute(sql: "UPDATE commandRecord SET payload = CAST('refund' AS BLOB) WHERE key = 'wf-4/3'")
            try db.execute(sql: "UPDATE commandRecord SET status = 'pending' WHERE key = 'wf-5/message/paid/pay-5'")
            try db.execute(
                sql:
                    "UPDATE commandRecord SET status = 'failed' WHERE parentKey = 'wf-7' AND kind = 'behaviorkit.workflow.join'"
            )
        }
    }
}
