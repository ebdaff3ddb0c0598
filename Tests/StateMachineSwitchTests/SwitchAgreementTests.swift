import BehaviorKitSync
import StateMachineSwitch
import Testing

/// The generated `switch` against the interpreter it was compiled for: the same outcome, state,
/// configuration, context and completion after every event of seeded random runs.
@Suite struct SwitchAgreementTests {
    @Test func theVehicleAgreesWithTheInterpreter() {
        let steps = agree(VehicleSwitch.self, context: Vehicle(), events: VehicleEvent.allCases, seed: 1)
        #expect(steps == 5_000)
    }

    @Test func theStatechartAgreesWithTheInterpreter() {
        let steps = agree(ChartSwitch.self, context: Counters(), events: ChartEvent.allCases, seed: 2)
        #expect(steps == 5_000)
    }

    @Test func aFlatMachineWithFailingGuardsAndAFinalStateAgrees() {
        for seed in 3..<23 {
            _ = agree(DoorSwitch.self, context: 0, events: DoorEvent.allCases, seed: UInt64(seed), length: 50)
        }
    }

    @Test func theVehicleAnswersAsTheScenarioSays() {
        var vehicle = VehicleSwitch(context: Vehicle())
        #expect(vehicle.context.log == ["stopped"])
        #expect(
            vehicle.send(.brake).refusal?.reason == .rejected("Can't brake... Vehicle is already stopped!"))
        #expect(
            vehicle.send(.accelerate).transition
                == Transition(
                    source: .stopped, target: .moving, trigger: .event(.accelerate), isInternal: false))
        #expect(vehicle.send(.accelerate).transition?.isInternal == true)
        #expect(vehicle.context.speed == 10)
        vehicle.send(.brake)
        #expect(vehicle.state == .moving)
        vehicle.send(.brake)
        #expect(vehicle.state == .stopped)
        #expect(vehicle.current == .stopped)
    }

    @Test func theChartEntersItsParallelRegionsAndEnds() {
        var chart = ChartSwitch(context: Counters())
        #expect(chart.configuration == [.on, .active, .motor, .idle, .light, .dark])
        #expect(chart.context.trace == ["+on", "+active", "+motor", "+idle"])
        chart.send(.start)
        chart.send(.toggle)
        #expect(chart.configuration == [.on, .active, .motor, .running, .light, .lit])
        #expect(chart.send(.finish).refusal?.reason == .guardFailed(["ticked"]))
        chart.send(.tick)
        chart.send(.tick)
        #expect(chart.send(.finish).transition?.target == .done)
        #expect(chart.isFinished)
        #expect(chart.send(.power).refusal?.reason == .finalState)
    }
}

/// Runs `length` random events through the switch and the interpreter side by side, checking
/// after each that they agree; returns the number of events checked.
@discardableResult
func agree<Machine: SwitchedStateMachine>(
    _ type: Machine.Type, context: Machine.Context, events: [Machine.Event], seed: UInt64, length: Int = 5_000,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Int where Machine.Context: Equatable {
    var compiled = Machine(context: context)
    var interpreted = Machine.interpreted(context: context)
    var random = SplitMix64(seed: seed)
    var checked = 0
    func same(_ step: String) -> Bool {
        let agrees =
            compiled.state == interpreted.state && compiled.configuration == interpreted.configuration
            && compiled.context == interpreted.context && compiled.isFinished == interpreted.isFinished
        #expect(
            agrees, "\(step): switch \(compiled.configuration) vs interpreter \(interpreted.configuration)",
            sourceLocation: sourceLocation)
        return agrees
    }
    guard same("start") else { return 0 }
    for step in 0..<length {
        let event = events[Int(random.next() % UInt64(events.count))]
        let fromSwitch = compiled.send(event)
        let fromInterpreter = interpreted.send(event)
        #expect(fromSwitch == fromInterpreter, "event \(step) (\(event))", sourceLocation: sourceLocation)
        guard fromSwitch == fromInterpreter, same("after event \(step) (\(event))") else { return checked }
        checked += 1
    }
    return checked
}

/// Forty seeded random statecharts (Scripts/random-switch-charts.py): nested and parallel states,
/// guards, internal and external transitions, refusals, entries, exits and final states.
@Suite struct RandomChartAgreementTests {
    @Test func everyRandomChartAgreesWithTheInterpreter() {
        var checked = 0
        for (index, chart) in randomCharts.enumerated() {
            let steps = chart.agree(UInt64(index) &+ 100, 2_000)
            #expect(steps == 2_000, "\(chart.name) disagreed after \(steps) events")
            checked += steps
        }
        #expect(checked == randomCharts.count * 2_000)
    }
}
