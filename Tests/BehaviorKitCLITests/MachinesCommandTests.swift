import Foundation
import Testing

/// `behaviorkit machines`: a durable machine's instances read from the store alone, on a store a
/// small machine fleet wrote.
@Suite struct MachinesCommandTests {
    @Test func countsKeysAndAHistoryAreReadFromTheStore() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("machines-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fleet = try CLIRunner.run([
            "machine-fleet", "--workers", "2", "--keys", "20", "--kills", "0", "--seed", "3", "--directory", folder,
        ])
        #expect(fleet.exitCode == 0, "\(fleet.standardOutput)\(fleet.standardError)")
        let store = folder + "/machines.sqlite"

        let counts = try CLIRunner.run(["machines", store, "--machine", "parcel", "--format", "json"])
        #expect(counts.exitCode == 0, "\(counts.standardError)")
        let parsed = try JSONSerialization.jsonObject(with: Data(counts.standardOutput.utf8)) as? [String: Int]
        #expect(parsed?.values.reduce(0, +) == 20, "\(counts.standardOutput)")

        let state = try #require(parsed?.keys.sorted().first)
        let keys = try CLIRunner.run(["machines", store, "--machine", "parcel", "--state", state])
        #expect(keys.exitCode == 0)
        #expect(
            keys.standardOutput.hasSuffix(
                "\(parsed?[state] ?? -1) instance\(parsed?[state] == 1 ? "" : "s") of 'parcel' in \(state)\n"))

        let history = try CLIRunner.run(["machines", store, "--machine", "parcel", "--key", "p0"])
        #expect(history.exitCode == 0)
        let lines = history.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("parcel/p0: version ") == true, "\(history.standardOutput)")
        #expect(lines.dropFirst().first?.hasSuffix("start → placed") == true, "\(history.standardOutput)")

        let missing = try CLIRunner.run(["machines", store, "--machine", "parcel", "--key", "nope"])
        #expect(missing.exitCode == 1 && missing.standardError.contains("no instance 'nope'"))
        let noFile = try CLIRunner.run(["machines", folder + "/absent.sqlite", "--machine", "parcel"])
        #expect(noFile.exitCode == 1 && noFile.standardError.contains("no such file"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/absent.sqlite"), "reading created the file")
    }
}
