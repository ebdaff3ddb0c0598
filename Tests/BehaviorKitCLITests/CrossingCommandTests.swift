import Testing

struct CrossingCommandTests {
    @Test func defaultRunPrintsTheGoldenTrace() throws {
        let result = try CLIRunner.run(["crossing"])
        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput == """
                [  0 s] Cars: green
                [  0 s] Pedestrians: don't walk
                [  2 s] > button
                [  2 s] Pedestrians: waiting
                [  2 s] Cars: yellow
                [  4 s] > service
                [  4 s] Service: both lights flash yellow
                [  5 s] > button
                [  5 s] The crossing is in service: cross with care
                [ 10 s] > resume
                [ 10 s] Cars: yellow
                [ 10 s] Pedestrians: waiting
                [ 13 s] Cars: red
                [ 13 s] Pedestrians: walk
                [ 21 s] Pedestrians: flashing don't walk
                [ 25 s] Pedestrians: don't walk
                [ 25 s] Cars: green
                [ 30 s] > shutdown
                [ 30 s] Off
                Pedestrians crossed: 1

                """)
    }

    @Test func scriptOptionRunsAnotherDay() throws {
        let result = try CLIRunner.run(["crossing", "--script", "1:button, 2:button"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("[  2 s] Already pressed: the light will change soon\n"))
        #expect(result.standardOutput.hasSuffix("[ 16 s] Cars: green\nPedestrians crossed: 1\n"))
    }

    @Test func badScriptIsAnErrorNamingTheItem() throws {
        let result = try CLIRunner.run(["crossing", "--script", "2:fly"])
        #expect(result.exitCode != 0)
        #expect(
            result.standardError.contains(
                "bad script item '2:fly': unknown event 'fly'; valid events: button, service, resume, shutdown"))
    }

    @Test func crossingDiagramNestsTheLights() throws {
        let result = try CLIRunner.run(["diagram", "crossing"])
        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput.contains("    state operating {\n        [*] --> running\n        state running {\n"))
        #expect(result.standardOutput.contains("    service --> resume : resume\n"))
    }

    @Test func crossingAsSCXML() throws {
        let result = try CLIRunner.run(["diagram", "crossing", "--format", "scxml"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains(#"<history id="resume" type="deep">"#))
        #expect(result.standardOutput.contains(#"<parallel id="running">"#))
        #expect(result.standardOutput.contains(#"<transition event="done.state.crossing" target="dontWalk">"#))
    }
}
