import BehaviorKitSQLite
import Foundation
import Testing

/// `behaviorkit console`: what it refuses, and that a database password never shows.
struct ConsoleCommandTests {
    @Test func aJournalItCannotOpenIsNamedWithoutItsPassword() throws {
        let result = try CLIRunner.run([
            "console", "--journal", "postgres://ops:hunter2@127.0.0.1:1/jobs", "--port", "0",
        ])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("error: PostgreSQL command journal"))
        #expect(!result.standardError.contains("hunter2") && !result.standardOutput.contains("hunter2"))
    }

    @Test func itPrintsItsTokenAndTheURLToOpenOn127001() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("console-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("journal.sqlite").path
        try await SQLiteCommandJournal(path: path).close()
        // A server runs until stopped: the run is killed after its time bound, once it has printed.
        let result = try CLIRunner.run(["console", "--journal", path, "--port", "0"], timeout: .seconds(3))
        #expect(result.timedOut)
        let token = try #require(result.standardOutput.firstMatch(of: /token: ([0-9a-f]{64})\n/)?.1)
        #expect(result.standardOutput.contains(try Regex("open:  http://127\\.0\\.0\\.1:\\d+/\\?token=\(token)")))
    }

    @Test func aMissingJournalFileIsAnError() throws {
        let result = try CLIRunner.run(["console", "--journal", "/nonexistent/journal.sqlite"])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("no such file"))
    }

    @Test(arguments: [
        (["--machines", "store.sqlite"], "--machines needs at least one --machine NAME"),
        (["--machine", "parcels"], "--machine needs --machines STORE"),
        (["--port", "70000"], "--port must be between 0 and 65535"),
    ])
    func badOptionsAreRefused(_ options: [String], _ message: String) throws {
        let result = try CLIRunner.run(["console", "--journal", "journal.sqlite"] + options)
        #expect(result.exitCode == 64)
        #expect(result.standardError.contains(message))
    }
}
