import BehaviorKitTesting
import Scenarios
import StateMachines
import Testing

/// The vehicle's transition table of SCENARIOS.md, row by row.
struct VehicleMachineTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let state: VehicleState
        let speed: Int
        let event: VehicleEvent
        let expectedState: VehicleState
        let expectedSpeed: Int
        let message: String?

        var testDescription: String { "\(state) at \(speed) on \(event)" }
    }

    static let table: [Row] = [
        Row(state: .stopped, speed: 0, event: .accelerate, expectedState: .moving, expectedSpeed: 5, message: nil),
        Row(
            state: .stopped, speed: 0, event: .brake, expectedState: .stopped, expectedSpeed: 0,
            message: "Can't brake... Vehicle is already stopped!"),
        Row(
            state: .stopped, speed: 0, event: .park, expectedState: .parking, expectedSpeed: 0,
            message: "Vehicle is now parking"),
        Row(state: .moving, speed: 5, event: .accelerate, expectedState: .moving, expectedSpeed: 10, message: nil),
        Row(state: .moving, speed: 10, event: .brake, expectedState: .moving, expectedSpeed: 5, message: nil),
        Row(
            state: .moving, speed: 5, event: .brake, expectedState: .stopped, expectedSpeed: 0,
            message: "Vehicle braked to a stop"),
        Row(
            state: .moving, speed: 5, event: .park, expectedState: .moving, expectedSpeed: 5,
            message: "Can't park the vehicle while it's moving. You need to stop first"),
        Row(
            state: .parking, speed: 0, event: .accelerate, expectedState: .parking, expectedSpeed: 0,
            message: "Vehicle is automatically parking, you can't accelerate!"),
        Row(
            state: .parking, speed: 0, event: .brake, expectedState: .stopped, expectedSpeed: 0,
            message: "Automatic parking has been aborted"),
        Row(
            state: .parking, speed: 0, event: .park, expectedState: .parking, expectedSpeed: 0,
            message: "Vehicle is already parking"),
    ]

    @Test(arguments: table)
    func transitionTable(row: Row) throws {
        let (console, recording) = Console.recording()
        var machine = StateMachine(VehicleMachine.definition(say: console.print), context: Vehicle())
        try machine.restore(MachineSnapshot(state: row.state, context: Vehicle(speed: row.speed)))
        let outcome = machine.send(row.event)
        if case .refused(let refusal) = outcome { console.print(refusal.description) }
        #expect(machine.state == row.expectedState)
        #expect(machine.context.speed == row.expectedSpeed)
        #expect(recording.lines == (row.message.map { [$0] } ?? []))
    }

    @Test func articleSequenceGoesThroughTheArticleSpeeds() {
        var machine = StateMachine(VehicleMachine.definition(), context: Vehicle())
        var speeds: [Int] = []
        for event in VehicleScenario.articleEvents {
            machine.send(event)
            speeds.append(machine.context.speed)
        }
        #expect(speeds == [0, 5, 10, 5, 5, 0, 0])
        #expect(machine.state == .parking)
    }

    @Test func parkingCompletesByItselfAfterFiveSecondsOfInjectedTime() async {
        let clock = ManualClock()
        let (console, recording) = Console.recording()
        let runtime = StateMachineRuntime(
            VehicleMachine.definition(say: console.print), context: Vehicle(), clock: clock)
        var transitions = runtime.transitions().makeAsyncIterator()
        runtime.send(.park)
        _ = await transitions.next()
        await clock.advance(by: .milliseconds(4_999))
        #expect(runtime.state == .parking)
        await clock.advance(by: .milliseconds(1))
        #expect(await transitions.next()?.trigger == .timer(.seconds(5)))
        #expect(runtime.state == .stopped)
        #expect(recording.lines == ["Vehicle is now parking", "Vehicle has stopped parking"])
    }

    /// The article's bug: an aborted park left its timer running, so it fired later.
    @Test func abortedParkNeverCompletesLater() async {
        let clock = ManualClock()
        let (console, recording) = Console.recording()
        let runtime = StateMachineRuntime(
            VehicleMachine.definition(say: console.print), context: Vehicle(), clock: clock)
        runtime.send(.park)
        await clock.advance(by: .seconds(2))
        runtime.send(.brake)
        runtime.send(.accelerate)
        await clock.advance(by: .seconds(60))
        await runtime.idle()
        #expect(runtime.state == .moving)
        #expect(runtime.context.speed == 5)
        #expect(recording.lines == ["Vehicle is now parking", "Automatic parking has been aborted"])
    }

    @Test func definitionHasNoDiagnostics() {
        #expect(VehicleMachine.definition().validate().isEmpty)
    }
}
