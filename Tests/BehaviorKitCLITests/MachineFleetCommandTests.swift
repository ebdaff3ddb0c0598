import Foundation
import Testing

/// `behaviorkit machine-fleet`: durable state machines shared by worker processes that are killed
/// and paused, every history replayed against the definition. A small run here; CI runs 8 workers
/// and 1,000 parcels.
@Suite struct MachineFleetCommandTests {
    @Test func killedAndPausedWorkersKeepEveryPromiseOnSQLite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("machine-fleet-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try CLIRunner.run([
            "machine-fleet", "--workers", "3", "--keys", "150", "--kills", "6", "--pause", "--lease-ms", "200",
            "--seed", "9", "--directory", folder,
        ])
        #expect(result.exitCode == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.hasSuffix("; 0 violations\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("150 keys"), "\(result.standardOutput)")
    }
}
