import Scenarios
import StateMachines
import Testing

struct CrossingScenarioTests {
    static let golden = [
        "[  0 s] Cars: green",
        "[  0 s] Pedestrians: don't walk",
        "[  2 s] > button",
        "[  2 s] Pedestrians: waiting",
        "[  2 s] Cars: yellow",
        "[  4 s] > service",
        "[  4 s] Service: both lights flash yellow",
        "[  5 s] > button",
        "[  5 s] The crossing is in service: cross with care",
        "[ 10 s] > resume",
        "[ 10 s] Cars: yellow",
        "[ 10 s] Pedestrians: waiting",
        "[ 13 s] Cars: red",
        "[ 13 s] Pedestrians: walk",
        "[ 21 s] Pedestrians: flashing don't walk",
        "[ 25 s] Pedestrians: don't walk",
        "[ 25 s] Cars: green",
        "[ 30 s] > shutdown",
        "[ 30 s] Off",
        "Pedestrians crossed: 1",
    ]

    @Test func defaultScriptPrintsTheGoldenTrace() async {
        let (console, recording) = Console.recording()
        await CrossingScenario.run(script: CrossingScenario.defaultScript, console: console)
        #expect(recording.lines == Self.golden)
    }

    @Test func serviceModeResumesWhereTheLightsLeftOff() {
        var machine = StateMachine(CrossingMachine.definition(), context: Crossing())
        machine.send(.button)
        #expect(machine.configuration == [.operating, .running, .cars, .carsYellow, .pedestrians, .waiting])
        machine.send(.service)
        #expect(machine.configuration == [.service])
        machine.send(.resume)
        #expect(machine.configuration == [.operating, .running, .cars, .carsYellow, .pedestrians, .waiting])
    }

    @Test func definitionIsSound() {
        #expect(CrossingMachine.definition().validate().isEmpty)
    }

    @Test func scriptParsesAndRejectsWithTheReason() throws {
        #expect(
            try CrossingScenario.script("2:button, 4:service") == [
                .init(at: .seconds(2), .button), .init(at: .seconds(4), .service),
            ])
        #expect(throws: CrossingScriptError.self) { try CrossingScenario.script("2:fly") }
        do {
            _ = try CrossingScenario.script("4:button,2:service")
        } catch {
            #expect(error.description == "bad script item '2:service': times must not go backwards")
        }
    }
}
