import Benchmark
import StateMachines

// A statechart of three levels with a parallel state of two regions, and the same chart as a
// hand-written nested `switch`: the floor.
//
//   on ─ active (parallel) ─┬─ motor: idle ⇄ running     (start, stop; tick is internal)
//                           └─ light: dark ⇄ lit         (toggle)
//   off                                                   (power leaves on from any leaf)
//
// The cycle takes a transition in one region, in the other, an internal one, an inherited one
// that exits five states, and the entry of the whole parallel state again.

enum ChartState: Hashable, Sendable { case on, active, motor, idle, running, light, dark, lit, off }
enum ChartEvent: Hashable, Sendable { case start, stop, toggle, tick, power }
struct Counters: Sendable { var moves = 0, ticks = 0, entries = 0 }

let chartCycle: [ChartEvent] = [.start, .toggle, .tick, .stop, .toggle, .power, .power]
let chartEvents: [ChartEvent] = (0..<1_000).map { chartCycle[$0 % chartCycle.count] }

/// The chart, written once in `Switch.swift`, where `@StateMachineSwitch` also compiles it.
let chartDefinition = ChartSwitch.definition

/// The same chart by hand: a nested enum and a nested `switch`.
struct FloorChart {
    enum Motor { case idle, running }
    enum Light { case dark, lit }
    enum Top { case on(Motor, Light), off }

    var state = Top.on(.idle, .dark)
    var counters = Counters()

    mutating func send(_ event: ChartEvent) -> Bool {
        switch state {
        case .on(let motor, let light):
            if event == .power {
                counters.moves += 1
                state = .off
                return true
            }
            var newMotor = motor
            var newLight = light
            var moved = false
            switch (motor, event) {
            case (.idle, .start):
                counters.moves += 1
                counters.entries += 1
                newMotor = .running
                moved = true
            case (.running, .stop):
                counters.moves += 1
                newMotor = .idle
                moved = true
            case (.running, .tick):
                counters.ticks += 1
                moved = true
            default: break
            }
            switch (light, event) {
            case (.dark, .toggle):
                counters.moves += 1
                newLight = .lit
                moved = true
            case (.lit, .toggle):
                counters.moves += 1
                newLight = .dark
                moved = true
            default: break
            }
            state = .on(newMotor, newLight)
            return moved
        case .off:
            guard event == .power else { return false }
            counters.moves += 1
            state = .on(.idle, .dark)
            return true
        }
    }
}

// Raised and eventless steps: one event that raises `raisedSteps` events, each taken by an
// internal transition; and one event whose target starts a chain of `raisedSteps` eventless
// transitions through two states. Per microstep: divide by `raisedSteps`.
let raisedSteps = 100

enum StepState: Hashable, Sendable { case ready, ping, pong }
enum StepEvent: Hashable, Sendable { case burst, echo, chain }
struct Steps: Sendable { var left = 0, count = 0 }

let raisingDefinition = StateMachineDefinition<StepState, StepEvent, Steps>(initial: .ready) {
    In(.ready) {
        On(.burst, actions: [Action("arm") { $0.left = raisedSteps - 1 }, .raise(.echo)])
        On(
            .echo,
            actions: [
                .raise("echo again") { steps, _ in steps.left > 0 ? .echo : nil },
                Action("count") {
                    $0.count += 1; $0.left -= 1
                },
            ])
        On(.chain, to: .ping) { $0.left = raisedSteps }
    }
    In(.ping) {
        Always(to: .pong, when: Guard("more") { $0.left > 0 }) { $0.left -= 1 }
        Always(to: .ready)
    }
    In(.pong) {
        Always(to: .ping, when: Guard("more") { $0.left > 0 }) { $0.left -= 1 }
        Always(to: .ready)
    }
}

func registerStatechartBenchmarks() {
    Benchmark("Statechart.send") { benchmark in
        var machine = StateMachine(chartDefinition, context: Counters())
        var moves = 0
        for _ in benchmark.scaledIterations {
            for event in chartEvents where machine.send(event).isTransition { moves &+= 1 }
        }
        blackHole(moves)
        blackHole(machine.context.moves)
    }

    Benchmark("Statechart.send.floor") { benchmark in
        var chart = FloorChart()
        var moves = 0
        for _ in benchmark.scaledIterations {
            for event in chartEvents where chart.send(event) { moves &+= 1 }
        }
        blackHole(moves)
        blackHole(chart.counters.moves)
    }

    // One scaled iteration: one event raising `raisedSteps` events (figures per event; divide).
    Benchmark("Statechart.raised100", configuration: .init(scalingFactor: .one)) { benchmark in
        var machine = StateMachine(raisingDefinition, context: Steps())
        for _ in benchmark.scaledIterations { machine.send(.burst) }
        blackHole(machine.context.count)
    }

    Benchmark("Statechart.eventless100", configuration: .init(scalingFactor: .one)) { benchmark in
        var machine = StateMachine(raisingDefinition, context: Steps())
        for _ in benchmark.scaledIterations { machine.send(.chain) }
        blackHole(machine.context.left)
    }
}
