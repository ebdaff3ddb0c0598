import Testing

/// The PostgreSQL trait: without it (the default build, so that `swift run behaviorkit tour` stays
/// small), every command given a `postgres://` location says how to build it in, and nothing else;
/// with it, the same commands reach for the server. Neither repeats the URL's password.
@Suite struct PostgreSQLTraitTests {
    static let commands: [[String]] = [
        ["journal", "postgres://operator:s3cret@127.0.0.1:1/none"],
        ["journal", "list", "postgres://operator:s3cret@127.0.0.1:1/none"],
        ["machines", "postgres://operator:s3cret@127.0.0.1:1/none", "--machine", "parcel"],
        ["machine-fleet", "--store", "postgres://operator:s3cret@127.0.0.1:1/none", "--keys", "1", "--workers", "1"],
    ]

    @Test(arguments: commands)
    func aPostgresLocationSaysHowToBuildItIn(_ arguments: [String]) throws {
        let result = try CLIRunner.run(arguments, timeout: .seconds(60))
        #expect(result.exitCode != 0)
        #expect(!result.standardError.contains("s3cret"))
        #expect(!result.standardOutput.contains("s3cret"))
        #if PostgreSQL
        #expect(!result.standardError.contains("built without PostgreSQL"))
        #else
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("built without PostgreSQL"))
        #expect(result.standardError.contains("--traits PostgreSQL"))
        #endif
    }
}
