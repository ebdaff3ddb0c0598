import Benchmark
import StateMachineSwitch

// The same vehicle and chart compiled by `@StateMachineSwitch` into a `switch` at build time,
// against the same floors. The vehicle has no parking timer here: the macro refuses `After`
// (timers need a runtime), and the flat `send` never reads it (nor does the floor have one).

@StateMachineSwitch
struct VehicleSwitch {
    static let definition = StateMachineDefinition<VehicleState, VehicleEvent, Vehicle>(initial: .stopped) {
        In(.stopped) {
            On(.accelerate, to: .moving) { $0.speed += 5 }
            Refuse(.brake, "Can't brake... Vehicle is already stopped!")
            On(.park, to: .parking)
        }
        In(.moving) {
            On(.brake, to: .stopped, when: Guard("speed ≤ 5") { $0.speed <= 5 }) {
                $0.speed -= 5
                say("Vehicle braked to a stop")
            }
            On(.brake) { $0.speed -= 5 }
            On(.accelerate) { $0.speed += 5 }
            Refuse(.park, "Can't park the vehicle while it's moving. You need to stop first")
        }
        In(.parking) {
            Entry { _ in say("Vehicle is now parking") }
            On(.brake, to: .stopped) { _ in say("Automatic parking has been aborted") }
            Refuse(.accelerate, "Vehicle is automatically parking, you can't accelerate!")
            Refuse(.park, "Vehicle is already parking")
        }
    }
}

@StateMachineSwitch
struct ChartSwitch {
    static let definition = StateMachineDefinition<ChartState, ChartEvent, Counters>(initial: .on) {
        In(.on, initial: .active) {
            On(.power, to: .off) { $0.moves += 1 }
            Parallel(.active) {
                In(.motor, initial: .idle) {
                    In(.idle) { On(.start, to: .running) { $0.moves += 1 } }
                    In(.running) {
                        Entry("count") { $0.entries += 1 }
                        On(.stop, to: .idle) { $0.moves += 1 }
                        On(.tick) { $0.ticks += 1 }
                    }
                }
                In(.light, initial: .dark) {
                    In(.dark) { On(.toggle, to: .lit) { $0.moves += 1 } }
                    In(.lit) { On(.toggle, to: .dark) { $0.moves += 1 } }
                }
            }
        }
        In(.off) { On(.power, to: .on) { $0.moves += 1 } }
    }
}

func registerSwitchBenchmarks() {
    Benchmark("StateMachineSwitch.send") { benchmark in
        var machine = VehicleSwitch(context: Vehicle())
        var moves = 0
        for _ in benchmark.scaledIterations {
            for event in events where machine.send(event).isTransition { moves &+= 1 }
        }
        blackHole(moves)
        blackHole(machine.context.speed)
    }

    Benchmark("StatechartSwitch.send") { benchmark in
        var machine = ChartSwitch(context: Counters())
        var moves = 0
        for _ in benchmark.scaledIterations {
            for event in chartEvents where machine.send(event).isTransition { moves &+= 1 }
        }
        blackHole(moves)
        blackHole(machine.context.moves)
    }
}
