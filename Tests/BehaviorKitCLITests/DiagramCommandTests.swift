import Testing

struct DiagramCommandTests {
    @Test func vehicleDiagramIsMermaidByDefault() throws {
        let result = try CLIRunner.run(["diagram", "vehicle"])
        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput == """
                stateDiagram-v2
                    [*] --> stopped
                    moving : brake / slow down
                    moving : accelerate / speed up
                    parking : entry / start parking
                    stopped --> moving : accelerate
                    stopped --> parking : park
                    moving --> stopped : brake [speed ≤ 5] / brake to a stop
                    parking --> stopped : brake / abort parking
                    parking --> stopped : after 5 s / finish parking

                """)
    }

    @Test func vehicleDiagramAsDOT() throws {
        let result = try CLIRunner.run(["diagram", "vehicle", "--format", "dot"])
        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput == """
                digraph StateMachine {
                    rankdir=LR;
                    node [shape=box, style=rounded];
                    __start [shape=point];
                    __start -> stopped;
                    stopped [label="stopped"];
                    moving [label="moving\\nbrake / slow down\\naccelerate / speed up"];
                    parking [label="parking\\nentry / start parking"];
                    stopped -> moving [label="accelerate"];
                    stopped -> parking [label="park"];
                    moving -> stopped [label="brake [speed ≤ 5] / brake to a stop"];
                    parking -> stopped [label="brake / abort parking"];
                    parking -> stopped [label="after 5 s / finish parking", style=dashed];
                }

                """)
    }

    @Test func unknownMachineIsAnError() throws {
        let result = try CLIRunner.run(["diagram", "toaster"])
        #expect(result.exitCode != 0)
        #expect(result.standardError.contains("toaster"))
    }
}
