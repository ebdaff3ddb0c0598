#!/usr/bin/env bash
# Instructions per event of the StateMachines benchmarks under `valgrind --tool=callgrind`: counts that do
# not depend on the machine's load. ordo-one's benchmark binaries can crash valgrind, so this builds a small
# harness (in a temporary folder, with `-c release`) from the same definitions as
# Benchmarks/StateMachinesBenchmarks, and counts each benchmark at two lengths: the difference, divided by the
# events between them, leaves out start-up and the definition's construction.
#
#     Benchmarks/Scripts/callgrind-statemachines.sh [path to the BehaviorKit checkout, default ../..]
#
# Prints one line per benchmark: its name and the instructions per event (per raised or eventless microstep for
# the last two, which divide by 100 and 102).
#
# Two caller shapes: `harness` sends from a loop in the module that holds the definitions, and `caller` (the lines
# `….caller`) from a loop in a module of its own that imports them from a library (`Machines`), as a user's app
# sends to machines its model module defines. Neither is in BehaviorKit's package, and neither uses `@testable`.
# `caller` also sends to the vehicle of scenario 4 as `Sources/Scenarios` writes it (`Scenario.send.caller`). Each
# shape has its own hand-written floor, compiled beside its loop.
#
# CALLGRIND_WORK=folder keeps the harness there between runs, so that a second run rebuilds only what changed.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "${1:-$here/..}" && pwd)"
sources="$here/Benchmarks/StateMachinesBenchmarks"
if [ -n "${CALLGRIND_WORK:-}" ]; then
    work="$CALLGRIND_WORK"  # kept between runs, so that a second run rebuilds only what changed
    mkdir -p "$work"
else
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/Sources/harness" "$work/Sources/Machines" "$work/Sources/caller"
cat > "$work/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "harness",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "BehaviorKit", path: "$root")],
    targets: [
        .executableTarget(
            name: "harness",
            dependencies: [
                .product(name: "StateMachines", package: "BehaviorKit"),
                .product(name: "StateMachineSwitch", package: "BehaviorKit"),
            ]
        ),
        .target(
            name: "Machines",
            dependencies: [
                .product(name: "StateMachines", package: "BehaviorKit"),
                .product(name: "StateMachineSwitch", package: "BehaviorKit"),
            ]
        ),
        .executableTarget(
            name: "caller",
            dependencies: ["Machines", .product(name: "StateMachines", package: "BehaviorKit")]
        ),
    ]
)
EOF
{
    echo 'import Foundation'
    echo 'import StateMachines'
    echo 'import StateMachineSwitch'
    echo '@inline(never) @_optimize(none) func blackHole<T>(_ value: T) {}'
    echo '@inline(never) @_optimize(none) func opaque<T>(_ value: T) -> T { value }'
    sed -n '/^let events/,$p' "$sources/Benchmarks.swift"
    sed -n '/^enum ChartState/,/^func registerStatechartBenchmarks/p' "$sources/Statechart.swift" | sed '$d'
    sed -n '/^@StateMachineSwitch/,/^func registerSwitchBenchmarks/p' "$sources/Switch.swift" | sed '$d'
} > "$work/Sources/harness/Definitions.swift"
# The same definitions, public, in a library of their own; the floors beside the caller's loops.
{
    echo 'public import StateMachines'
    echo 'import StateMachineSwitch'
    echo '@inline(never) @_optimize(none) public func blackHole<T>(_ value: T) {}'
    echo '@inline(never) @_optimize(none) public func opaque<T>(_ value: T) -> T { value }'
    sed -n '/^let events/,/^\/\/\/ The same vehicle as a hand-written/p' "$sources/Benchmarks.swift" | sed '$d'
    sed -n '/^enum ChartState/,/^let chartEvents/p' "$sources/Statechart.swift"
    echo 'public let chartDefinition = ChartSwitch.definition'
    sed -n '/^@StateMachineSwitch/,/^func registerSwitchBenchmarks/p' "$sources/Switch.swift" | sed '$d'
} | sed -e 's/^enum /public enum /' -e 's/^let /public let /' -e 's/^func say/public func say/' \
    -e 's/^struct Vehicle: Sendable { var speed = 0 }/public struct Vehicle: Sendable {\n    public var speed = 0\n    public init() {}\n}/' \
    -e 's/^struct Counters: Sendable { var moves = 0, ticks = 0, entries = 0 }/public struct Counters: Sendable {\n    public var moves = 0, ticks = 0, entries = 0\n    public init() {}\n}/' \
    -e 's/^struct \(VehicleSwitch\|ChartSwitch\) {/public struct \1 {/' -e 's/^    static let definition/    public static let definition/' \
    >"$work/Sources/Machines/Definitions.swift"
sed -e 's/VehicleState/ScenarioState/g' -e 's/VehicleEvent/ScenarioEvent/g' -e 's/public struct Vehicle:/public struct ScenarioVehicle:/' \
    -e 's/, Vehicle>/, ScenarioVehicle>/' "$root/Sources/Scenarios/Vehicle/VehicleMachine.swift" >"$work/Sources/Machines/Scenario.swift"
{
    echo 'import Machines'
    echo 'import StateMachines'
    sed -n '/^\/\/\/ The same vehicle as a hand-written/,/^final class LockedFloorVehicle/p' "$sources/Benchmarks.swift" | sed '$d'
    sed -n '/^struct FloorChart/,/^let raisedSteps/p' "$sources/Statechart.swift" | sed '$d'
} >"$work/Sources/caller/Floors.swift"
cat > "$work/Sources/caller/main.swift" <<'EOF'
import Machines
import StateMachines

let name = CommandLine.arguments[1]
let passes = Int(CommandLine.arguments[2]) ?? 1

@inline(never) func send(_ passes: Int) {
    let events = opaque(events)
    var machine = StateMachine(vehicleDefinition, context: Vehicle())
    var moves = 0
    for _ in 0..<passes { for event in events where machine.send(event).isTransition { moves &+= 1 } }
    blackHole(moves)
    blackHole(machine.context.speed)
}

@inline(never) func sendFloor(_ passes: Int) {
    let events = opaque(events)
    var vehicle = FloorVehicle()
    var moves = 0
    for _ in 0..<passes { for event in events where vehicle.send(event).isTransition { moves &+= 1 } }
    blackHole(moves)
    blackHole(vehicle.speed)
}

@inline(never) func scenarioSend(_ passes: Int) {
    let events: [ScenarioEvent] = opaque(events).map {
        switch $0 {
        case .accelerate: .accelerate
        case .brake: .brake
        case .park: .park
        }
    }
    var machine = StateMachine(VehicleMachine.definition(), context: ScenarioVehicle())
    var moves = 0
    for _ in 0..<passes { for event in events where machine.send(event).isTransition { moves &+= 1 } }
    blackHole(moves)
    blackHole(machine.context.speed)
}

@inline(never) func chartSend(_ passes: Int) {
    let events = opaque(chartEvents)
    var machine = StateMachine(chartDefinition, context: Counters())
    var moves = 0
    for _ in 0..<passes { for event in events where machine.send(event).isTransition { moves &+= 1 } }
    blackHole(moves)
    blackHole(machine.context.moves)
}

@inline(never) func chartSendFloor(_ passes: Int) {
    let events = opaque(chartEvents)
    var chart = FloorChart()
    var moves = 0
    for _ in 0..<passes { for event in events where chart.send(event) { moves &+= 1 } }
    blackHole(moves)
    blackHole(chart.counters.moves)
}

@inline(never) func switchSend(_ passes: Int) {
    let events = opaque(events)
    var machine = VehicleSwitch(context: Vehicle())
    var moves = 0
    for _ in 0..<passes { for event in events where machine.send(event).isTransition { moves &+= 1 } }
    blackHole(moves)
    blackHole(machine.context.speed)
}

@inline(never) func chartSwitchSend(_ passes: Int) {
    let events = opaque(chartEvents)
    var machine = ChartSwitch(context: Counters())
    var moves = 0
    for _ in 0..<passes { for event in events where machine.send(event).isTransition { moves &+= 1 } }
    blackHole(moves)
    blackHole(machine.context.moves)
}

switch name {
case "StateMachine.send.caller": send(passes)
case "StateMachine.send.floor.caller": sendFloor(passes)
case "Scenario.send.caller": scenarioSend(passes)
case "Statechart.send.caller": chartSend(passes)
case "Statechart.send.floor.caller": chartSendFloor(passes)
case "StateMachineSwitch.send.caller": switchSend(passes)
case "StatechartSwitch.send.caller": chartSwitchSend(passes)
default: fatalError("unknown benchmark \(name)")
}
EOF
cat > "$work/Sources/harness/main.swift" <<'EOF'
import Foundation
import StateMachines

// `passes` passes over the 1,000 events of the benchmark (or `passes` events for the 100-step ones).
let name = CommandLine.arguments[1]
let passes = Int(CommandLine.arguments[2]) ?? 1

@inline(never) func send(_ passes: Int) {
    let events = opaque(events)
    var machine = StateMachine(vehicleDefinition, context: Vehicle())
    var moves = 0
    for _ in 0..<passes { for event in events where machine.send(event).isTransition { moves &+= 1 } }
    blackHole(moves)
    blackHole(machine.context.speed)
}

@inline(never) func sendFloor(_ passes: Int) {
    let events = opaque(events)
    var vehicle = FloorVehicle()
    var moves = 0
    for _ in 0..<passes { for event in events where vehicle.send(event).isTransition { moves &+= 1 } }
    blackHole(moves)
    blackHole(vehicle.speed)
}

@inline(never) func runtimeSend(_ passes: Int) {
    let events = opaque(events)
    let runtime = StateMachineRuntime(vehicleDefinition, context: Vehicle())
    let counter = Counter()
    runtime.observe { _ in counter.count &+= 1 }
    for _ in 0..<passes { for event in events where runtime.send(event).isTransition { counter.moves &+= 1 } }
    runtime.stop()
    blackHole(counter.count)
}

@inline(never) func runtimeSendFloor(_ passes: Int) {
    let events = opaque(events)
    let floor = LockedFloorVehicle()
    let counter = Counter()
    let observer: @Sendable (VehicleState) -> Void = { _ in counter.count &+= 1 }
    for _ in 0..<passes {
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

@inline(never) func runtimeSendBatch(_ passes: Int) {
    let events = opaque(events)
    let runtime = StateMachineRuntime(vehicleDefinition, context: Vehicle())
    let counter = Counter()
    runtime.observe { _ in counter.count &+= 1 }
    for _ in 0..<passes { counter.moves &+= runtime.send(contentsOf: events).count }
    runtime.stop()
    blackHole(counter.count)
}

@inline(never) func chartSend(_ passes: Int) {
    let events = opaque(chartEvents)
    var machine = StateMachine(chartDefinition, context: Counters())
    var moves = 0
    for _ in 0..<passes { for event in events where machine.send(event).isTransition { moves &+= 1 } }
    blackHole(moves)
    blackHole(machine.context.moves)
}

@inline(never) func chartSendFloor(_ passes: Int) {
    let events = opaque(chartEvents)
    var chart = FloorChart()
    var moves = 0
    for _ in 0..<passes { for event in events where chart.send(event) { moves &+= 1 } }
    blackHole(moves)
    blackHole(chart.counters.moves)
}

@inline(never) func switchSend(_ passes: Int) {
    let events = opaque(events)
    var machine = VehicleSwitch(context: Vehicle())
    var moves = 0
    for _ in 0..<passes { for event in events where machine.send(event).isTransition { moves &+= 1 } }
    blackHole(moves)
    blackHole(machine.context.speed)
}

@inline(never) func chartSwitchSend(_ passes: Int) {
    let events = opaque(chartEvents)
    var machine = ChartSwitch(context: Counters())
    var moves = 0
    for _ in 0..<passes { for event in events where machine.send(event).isTransition { moves &+= 1 } }
    blackHole(moves)
    blackHole(machine.context.moves)
}

@inline(never) func raised(_ passes: Int) {
    var machine = StateMachine(raisingDefinition, context: Steps())
    for _ in 0..<passes { machine.send(.burst) }
    blackHole(machine.context.count)
}

@inline(never) func eventless(_ passes: Int) {
    var machine = StateMachine(raisingDefinition, context: Steps())
    for _ in 0..<passes { machine.send(.chain) }
    blackHole(machine.context.left)
}

switch name {
case "StateMachine.send": send(passes)
case "StateMachine.send.floor": sendFloor(passes)
case "StateMachine.runtimeSend": runtimeSend(passes)
case "StateMachine.runtimeSend.floor": runtimeSendFloor(passes)
case "StateMachine.runtimeSend.batch": runtimeSendBatch(passes)
case "Statechart.send": chartSend(passes)
case "Statechart.send.floor": chartSendFloor(passes)
case "StateMachineSwitch.send": switchSend(passes)
case "StatechartSwitch.send": chartSwitchSend(passes)
case "Statechart.raised100": raised(passes)
case "Statechart.eventless100": eventless(passes)
default: fatalError("unknown benchmark \(name)")
}
EOF
if ! (cd "$work" && swift build -c release >"$work/build.log" 2>&1); then
    cat "$work/build.log" >&2
    exit 1
fi
count() {
    local binary=harness
    case "$1" in *.caller) binary=caller ;; esac
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/.build/release/$binary" "$1" "$2" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
measure() {  # name, short, long, events per pass
    local short long
    short=$(count "$1" "$2")
    long=$(count "$1" "$3")
    awk -v n="$1" -v a="$short" -v b="$long" -v d="$(( ($3 - $2) * $4 ))" 'BEGIN { printf "%-34s %10.1f\n", n, (b - a) / d }'
}
for benchmark in StateMachine.send StateMachine.send.floor StateMachine.runtimeSend StateMachine.runtimeSend.floor \
    StateMachine.runtimeSend.batch Statechart.send Statechart.send.floor StateMachineSwitch.send \
    StatechartSwitch.send; do
    measure "$benchmark" 10 110 1000
done
for benchmark in StateMachine.send.caller StateMachine.send.floor.caller Scenario.send.caller Statechart.send.caller \
    Statechart.send.floor.caller StateMachineSwitch.send.caller StatechartSwitch.send.caller; do
    measure "$benchmark" 10 110 1000
done
measure Statechart.raised100 100 1100 100
measure Statechart.eventless100 100 1100 102
