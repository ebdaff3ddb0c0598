import StateMachineSwitch

// Machines compiled by `@StateMachineSwitch`, each beside the interpreter in SwitchAgreementTests.

enum VehicleState: Hashable, Sendable { case stopped, moving, parking }
enum VehicleEvent: Hashable, Sendable, CaseIterable { case accelerate, brake, park }
struct Vehicle: Hashable, Sendable {
    var speed = 0
    var log: [String] = []
}

/// Scenario 4's vehicle (without its parking timer): guards that fail and hold, a refusal with a
/// reason, internal and external transitions, entry and exit actions, one reading the event.
@StateMachineSwitch
struct VehicleSwitch {
    static let definition = StateMachineDefinition<VehicleState, VehicleEvent, Vehicle>(initial: .stopped) {
        In(.stopped) {
            Entry { $0.log.append("stopped") }
            On(.accelerate, to: .moving) { $0.speed += 5 }
            Refuse(.brake, "Can't brake... Vehicle is already stopped!")
            On(.park, to: .parking)
        }
        In(.moving) {
            Exit { vehicle, event in vehicle.log.append("left moving on \(String(describing: event))") }
            On(.brake, to: .stopped, when: Guard("speed ≤ 5") { $0.speed <= 5 }) { $0.speed -= 5 }
            On(.brake) { $0.speed -= 5 }
            On(.accelerate, when: Guard("below 20") { $0.speed < 20 }) { $0.speed += 5 }
            On(.accelerate, when: Guard("below 20") { vehicle, _ in vehicle.speed < 20 }) { $0.speed += 100 }
            Refuse(.park, "Can't park the vehicle while it's moving. You need to stop first")
        }
        In(.parking) {
            Entry("say") { vehicle, event in vehicle.log.append("parking on \(String(describing: event))") }
            On(.brake, to: .stopped) { vehicle, event in vehicle.log.append("aborted by \(event)") }
            On(.park, to: .parking, actions: [Action("again") { $0.log.append("re-park") }])
            Refuse(.accelerate, "Vehicle is automatically parking, you can't accelerate!")
        }
    }
}

enum ChartState: Hashable, Sendable { case on, active, motor, idle, running, light, dark, lit, off, done }
enum ChartEvent: Hashable, Sendable, CaseIterable { case start, stop, toggle, tick, power, reset, finish }
struct Counters: Hashable, Sendable {
    var moves = 0, ticks = 0, entries = 0, exits = 0
    var trace: [String] = []
}

/// The benchmark's chart with more in it: a parallel state of two regions, an inherited
/// transition, a region's transition that preempts its ancestor's, internal targets, a
/// top-level final state, and every entry and exit traced.
@StateMachineSwitch
struct ChartSwitch {
    static let definition = StateMachineDefinition<ChartState, ChartEvent, Counters>(initial: .on) {
        In(.on, initial: .active) {
            Entry { $0.trace.append("+on") }
            Exit { $0.trace.append("-on") }
            On(.power, to: .off) { $0.moves += 1 }
            On(.reset, to: .active) { $0.trace.append("reset") }
            On(.finish, to: .done, when: Guard("ticked") { $0.ticks > 1 })
            Parallel(.active) {
                Entry { $0.trace.append("+active") }
                Exit { $0.trace.append("-active") }
                In(.motor, initial: .idle) {
                    Entry { $0.trace.append("+motor") }
                    Exit { $0.trace.append("-motor") }
                    On(.reset, to: .running, internal: true) { $0.trace.append("motor reset") }
                    In(.idle) {
                        Entry { $0.trace.append("+idle") }
                        On(.start, to: .running) { $0.moves += 1 }
                    }
                    In(.running) {
                        Entry("count") { $0.entries += 1 }
                        Exit { $0.exits += 1 }
                        On(.stop, to: .idle) { $0.moves += 1 }
                        On(.tick) { $0.ticks += 1 }
                        On(.power, when: Guard("busy") { $0.ticks > 3 }) { $0.trace.append("kept on") }
                    }
                }
                In(.light, initial: .dark) {
                    In(.dark) {
                        On(.toggle, to: .lit) { $0.moves += 1 }
                        Refuse(.tick, "too dark to tick")
                    }
                    In(.lit) {
                        Exit { $0.trace.append("-lit") }
                        On(.toggle, to: .dark) { $0.moves += 1 }
                        On(.tick, to: .lit) { $0.trace.append("relit") }
                    }
                }
            }
        }
        In(.off) {
            On(.power, to: .on) { $0.moves += 1 }
            On(.finish, to: .done)
        }
        In(.done, final: true)
    }
}

enum DoorState: Hashable, Sendable { case closed, opened, locked }
enum DoorEvent: Hashable, Sendable, CaseIterable { case open, close, lock, unlock }

/// A flat machine whose guards all fail on some events (the refusal names each rule's guard, as a
/// flat machine does), and a final state.
@StateMachineSwitch
struct DoorSwitch {
    static let definition = StateMachineDefinition<DoorState, DoorEvent, Int>(initial: .closed) {
        In(.closed) {
            On(.open, to: .opened, when: Guard("even") { $0 % 2 == 0 }) { $0 += 1 }
            On(.open, to: .opened, when: Guard("even") { $0 % 4 == 0 }) { $0 += 2 }
            On(.lock, to: .locked, when: Guard("small") { $0 < 7 })
            On(.close) { $0 += 3 }
        }
        In(.opened) {
            On(.close, to: .closed) { $0 += 1 }
            On(.open, to: .opened) { $0 += 10 }
        }
        In(.locked, final: true)
    }
}
