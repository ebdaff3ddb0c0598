import BehaviorKitTesting
import Scenarios
import Testing

struct VehicleScenarioTests {
    @Test func articleSequencePrintsTheArticleLines() async {
        let (console, recording) = Console.recording()
        await VehicleScenario.run(
            events: VehicleScenario.articleEvents, clock: ImmediateClock(), console: console, settleBetweenEvents: true)
        #expect(
            recording.lines == [
                "Can't brake... Vehicle is already stopped!",
                "Can't park the vehicle while it's moving. You need to stop first",
                "Vehicle braked to a stop",
                "Vehicle is now parking",
                "Vehicle has stopped parking",
            ])
    }
}
