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

    @Test func eventsOptionRunsAnotherSequence() throws {
        let result = try CLIRunner.run(["vehicle", "--instant", "--events", "accelerate, park,brake,brake"])
        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput == """
                Can't park the vehicle while it's moving. You need to stop first
                Vehicle braked to a stop
                Can't brake... Vehicle is already stopped!

                """)
    }

    @Test func interactiveReadsOneEventPerLineAndGoesOnAfterABadLine() throws {
        let result = try CLIRunner.run(["vehicle", "--interactive", "--instant"], input: "accelerate\nfly\nbrake\n")
        #expect(result.exitCode != 0)
        #expect(
            result.standardOutput == """
                state: moving, speed: 5
                error: unknown event 'fly'; valid events: accelerate, brake, park
                state: moving, speed: 5
                Vehicle braked to a stop
                state: stopped, speed: 0

                """)
    }
}
