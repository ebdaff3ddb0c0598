import Benchmark
import Foundation
import StateMachines

// The vehicle machine of scenario 4, driven through a cycle of seven events that takes every
// kind of step: external and internal transitions, a guard that fails and one that holds, entry
// actions, a refusal with a reason, and a parking timer armed on entry and dropped on exit.
//
//   accelerate, accelerate, park (refused), brake, brake, park, brake (aborts parking)
//
// One iteration sends the 1,000 events below, so harness overhead is far below 1 % and the time per event
// keeps three digits (a scaled iteration of one event would be rounded to whole nanoseconds);
// `Scripts/ratios.sh` divides these benchmarks' figures by 1,000.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal],
        timeUnits: .nanoseconds,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 1_000
    )

    // Figures are per 1,000 events.

    Benchmark("StateMachine.send") { benchmark in
        var machine = StateMachine(vehicleDefinition, context: Vehicle())
        var moves = 0
        for _ in benchmark.scaledIterations {
            for event in events where machine.send(event).isTransition { moves &+= 1 }
        }
        blackHole(moves)
        blackHole(machine.context.speed)
    }

    Benchmark("StateMachine.send.floor") { benchmark in
        var vehicle = FloorVehicle()
        var moves = 0
        for _ in benchmark.scaledIterations {
            for event in events where vehicle.send(event).isTransition { moves &+= 1 }
        }
        blackHole(moves)
        blackHole(vehicle.speed)
    }

    Benchmark("StateMachine.runtimeSend") { benchmark in
        let runtime = StateMachineRuntime(vehicleDefinition, context: Vehicle())
        let counter = Counter()
        runtime.observe { _ in counter.count &+= 1 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for event in events where runtime.send(event).isTransition { counter.moves &+= 1 }
        }
        benchmark.stopMeasurement()
        runtime.stop()
        blackHole(counter.count)
    }

    // The same work by hand: a lock around the switch, then one observer call outside it.
    Benchmark("StateMachine.runtimeSend.floor") { benchmark in
        let floor = LockedFloorVehicle()
        let counter = Counter()
        let observer: @Sendable (VehicleState) -> Void = { _ in counter.count &+= 1 }
        for _ in benchmark.scaledIterations {
            for event in events {
                floor.lock.lock()
                let answer = floor.vehicle.send(event)
                floor.lock.unlock()
                if case .moved(_, let target) = answer {
                    observer(target)
                    counter.moves &+= 1
                }
            }
        }
        blackHole(counter.count)
    }

    Benchmark("StateMachine.runtimeSend.batch") { benchmark in
        let runtime = StateMachineRuntime(vehicleDefinition, context: Vehicle())
        let counter = Counter()
        runtime.observe { _ in counter.count &+= 1 }
        benchmark.startMeasurement()
        counter.moves &+= runtime.send(contentsOf: events).count
        benchmark.stopMeasurement()
        runtime.stop()
        blackHole(counter.count)
    }

    registerStatechartBenchmarks()
    registerSwitchBenchmarks()
}

/// 1,000 events: the cycle below, repeated.
let events: [VehicleEvent] = (0..<1_000).map { cycle[$0 % cycle.count] }

enum VehicleState: Hashable, Sendable { case stopped, moving, parking }
enum VehicleEvent: Hashable, Sendable { case accelerate, brake, park }
struct Vehicle: Sendable { var speed = 0 }

/// Where the machine and the floor hand their messages: an opaque call, as printing would be.
@inline(never)
func say(_ message: StaticString) { blackHole(message) }

let cycle: [VehicleEvent] = [.accelerate, .accelerate, .park, .brake, .brake, .park, .brake]

let vehicleDefinition = StateMachineDefinition<VehicleState, VehicleEvent, Vehicle>(initial: .stopped) {
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
        After(.seconds(5), to: .stopped) { _ in say("Vehicle has stopped parking") }
        On(.brake, to: .stopped) { _ in say("Automatic parking has been aborted") }
        Refuse(.accelerate, "Vehicle is automatically parking, you can't accelerate!")
        Refuse(.park, "Vehicle is already parking")
    }
}

/// The same vehicle as a hand-written `switch`: the floor.
struct FloorVehicle {
    enum Answer {
        case moved(VehicleState, VehicleState), refused(StaticString)

        var isTransition: Bool {
            if case .moved = self { return true }
            return false
        }
    }

    var state = VehicleState.stopped
    var speed = 0

    mutating func send(_ event: VehicleEvent) -> Answer {
        let source = state
        switch (state, event) {
        case (.stopped, .accelerate):
            speed += 5
            state = .moving
        case (.stopped, .brake): return .refused("Can't brake... Vehicle is already stopped!")
        case (.stopped, .park):
            state = .parking
            say("Vehicle is now parking")
        case (.moving, .accelerate): speed += 5
        case (.moving, .brake):
            if speed <= 5 {
                speed -= 5
                say("Vehicle braked to a stop")
                state = .stopped
            } else {
                speed -= 5
            }
        case (.moving, .park): return .refused("Can't park the vehicle while it's moving. You need to stop first")
        case (.parking, .accelerate): return .refused("Vehicle is automatically parking, you can't accelerate!")
        case (.parking, .brake):
            say("Automatic parking has been aborted")
            state = .stopped
        case (.parking, .park): return .refused("Vehicle is already parking")
        }
        return .moved(source, state)
    }
}

final class LockedFloorVehicle: @unchecked Sendable {
    let lock = NSLock()
    var vehicle = FloorVehicle()
}

final class Counter: @unchecked Sendable {
    var count = 0
    var moves = 0
}
