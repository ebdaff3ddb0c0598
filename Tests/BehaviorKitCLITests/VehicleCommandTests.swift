import Testing

struct VehicleCommandTests {
    @Test func instantRunPrintsTheArticleTrace() throws {
        let result = try CLIRunner.run(["vehicle", "--instant"])
        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput == """
                Can't brake... Vehicle is already stopped!
                Can't park the vehicle while it's moving. You need to stop first
                Vehicle braked to a stop
                Vehicle is now parking
                Vehicle has stopped parking

                """)
    }

    @Test func unknownEventIsAnErrorListingTheValidOnes() throws {
        let result = try CLIRunner.run(["vehicle", "--events", "accelerate,fly"])
        #expect(result.exitCode != 0)
        #expect(result.standardError.contains("unknown event 'fly'; valid events: accelerate, brake, park"))
        #expect(result.standardOutput.isEmpty)
    }
}
