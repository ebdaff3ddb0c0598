import StateMachines

/// States of the statechart tests, named after SCXML's test charts.
enum S: String, Hashable, Sendable, Codable, CaseIterable {
    case a, a1, a2, a21, a22, aHistory, aDeepHistory
    case b, b1, b2
    case p, r1, r1x, r1y, r1end, r2, r2x, r2y, r2end
    case end, unknown
}

enum E: String, Hashable, Sendable, Codable {
    case go, next, inner, outer, toB, toA, toP, back, deep, shallow, finish1, finish2, ping, tick, stay
}

/// A context that records entries (`+s`), exits (`-s`) and transition actions.
struct Log: Hashable, Sendable, Codable {
    var steps: [String] = []
    var count = 0
}

/// Entry and exit actions that leave `+s` and `-s` in the log.
func logged(_ state: S) -> [StateElement<S, E, Log>] {
    [
        StateElement.entry(state), StateElement.exit(state),
    ]
}

extension StateElement where State == S, Event == E, Context == Log {
    static func entry(_ state: S) -> Self {
        StateBuilder.buildExpression(Entry("+\(state)") { $0.steps.append("+\(state)") })[0]
    }
    static func exit(_ state: S) -> Self {
        StateBuilder.buildExpression(Exit("-\(state)") { $0.steps.append("-\(state)") })[0]
    }
}

func note(_ text: String) -> Action<Log, E> { Action(text) { $0.steps.append(text) } }

/// A compound state `a` (with `a2` compound inside it, shallow and deep history), a compound `b`,
/// and a parallel `p` with two regions that each can finish.
let chart = StateMachineDefinition<S, E, Log>(initial: .a) {
    In(.a, initial: .a1) {
        logged(.a)
        History(.aHistory, .shallow, default: .a2)
        History(.aDeepHistory, .deep)
        On(.toB, to: .b, actions: [note("a→b")])
        On(.outer, to: .a22, actions: [note("outer")])
        On(.inner, to: .a22, internal: true, actions: [note("inner")])
        On(.ping) { $0.count += 1 }
        In(.a1) {
            logged(.a1)
            On(.next, to: .a2, actions: [note("a1→a2")])
            On(.ping) { $0.count += 100 }  // the innermost rule wins
        }
        In(.a2, initial: .a21) {
            logged(.a2)
            In(.a21) {
                logged(.a21)
                On(.next, to: .a22, actions: [note("a21→a22")])
            }
            In(.a22) { logged(.a22) }
        }
    }
    In(.b, initial: .b1) {
        logged(.b)
        On(.back, to: .aHistory, actions: [note("back")])
        On(.deep, to: .aDeepHistory, actions: [note("deep")])
        On(.toP, to: .p)
        In(.b1) { logged(.b1) }
        In(.b2) { logged(.b2) }
    }
    Parallel(.p) {
        logged(.p)
        OnDone(to: .end, actions: [note("p done")])
        In(.r1, initial: .r1x) {
            logged(.r1)
            In(.r1x) {
                logged(.r1x)
                On(.go, to: .r1y, actions: [note("r1x→r1y")])
            }
            In(.r1y) {
                logged(.r1y)
                On(.finish1, to: .r1end)
            }
            In(.r1end, final: true) { logged(.r1end) }
        }
        In(.r2, initial: .r2x) {
            logged(.r2)
            In(.r2x) {
                logged(.r2x)
                On(.go, to: .r2y, actions: [note("r2x→r2y")])
            }
            In(.r2y) {
                logged(.r2y)
                On(.finish2, to: .r2end)
            }
            In(.r2end, final: true) { logged(.r2end) }
        }
    }
    In(.end, final: true) { logged(.end) }
}

extension StateMachine where Context == Log {
    /// The log since the last call.
    mutating func drain() -> [String] {
        defer { context.steps.removeAll() }
        return context.steps
    }
}
