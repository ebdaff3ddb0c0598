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
