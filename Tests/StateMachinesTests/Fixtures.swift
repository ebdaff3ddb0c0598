import StateMachines

enum Light: String, Hashable, Sendable, Codable, CaseIterable {
    case green, yellow, red, off
}

enum Signal: String, Hashable, Sendable, Codable {
    case next, fault, repair, shutdown, tick
}

/// A context that records every action, so tests can assert the order they ran in.
struct Trace: Hashable, Sendable, Codable {
    var steps: [String] = []
    var ticks = 0
    var night = false
}

/// A traffic light whose every action leaves a mark in the trace.
let trafficLight = StateMachineDefinition<Light, Signal, Trace>(initial: .green) {
    In(.green) {
        Entry("enter green") { $0.steps.append("enter green") }
        Exit("exit green") { $0.steps.append("exit green") }
        On(.next, to: .yellow) { $0.steps.append("green→yellow") }
        On(.tick) { $0.ticks += 1 }
        On(.repair, to: .green) { $0.steps.append("green→green") }
        On(.fault, to: .off)
    }
    In(.yellow) {
        Entry("enter yellow") { $0.steps.append("enter yellow") }
        Exit("exit yellow") { $0.steps.append("exit yellow") }
        On(.next, to: .red, when: Guard("not at night") { !$0.night }) { $0.steps.append("yellow→red") }
        On(.next, to: .green, when: Guard("at night") { $0.night }) { $0.steps.append("yellow→green") }
        After(.seconds(3), to: .red) { $0.steps.append("yellow timed out") }
        Refuse(.repair, "nothing to repair")
    }
    In(.red) {
        Entry("enter red") { $0.steps.append("enter red") }
        On(.next, to: .green, when: Guard("ticked") { $0.ticks > 0 })
        After(.seconds(10), to: .green)
    }
    In(.off, final: true)
}
