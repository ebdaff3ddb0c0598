import BehaviorKitSQLite
import Foundation
import Testing

/// `behaviorkit console`: what it refuses, and that a database password never shows; without the
/// Console trait, how to build it in.
struct ConsoleCommandTests {
    @Test(.enabled(if: !BuildTraits.console, "the tool was built with the Console trait"))
    func withoutItsTraitTheConsoleSaysHowToBuildItIn() throws {
        let result = try CLIRunner.run(["console", "--journal", "journal.sqlite"])
        #expect(result.exitCode == 1)
        #expect(
            result.standardError
                == "error: this behaviorkit was built without the web console; build it with the Console trait: "
                + "swift run --traits Console behaviorkit console … (or swift build --traits Console)\n")
    }

    @Test(.enabled(if: BuildTraits.console && BuildTraits.postgreSQL, "needs the Console and PostgreSQL traits"))
    func aJournalItCannotOpenIsNamedWithoutItsPassword() throws {
        let result = try CLIRunner.run([
            "console", "--journal", "postgres://ops:hunter2@127.0.0.1:1/jobs", "--port", "0",
        ])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("error: PostgreSQL command journal"))
        #expect(!result.standardError.contains("hunter2") && !result.standardOutput.contains("hunter2"))
    }

    @Test(.enabled(if: BuildTraits.console, "needs the Console trait"))
    func itPrintsItsTokenAndTheURLToOpenOn127001() async throws {
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

    @Test(.enabled(if: BuildTraits.console, "needs the Console trait"))
    func aMissingJournalFileIsAnError() throws {
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
