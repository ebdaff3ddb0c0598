import BehaviorKitSync
import StateMachines
import Testing

// `send` indexes a flat machine's rules, and runs a statechart's steps from plans made when the
// definition was built, for events of one byte (enums without payloads). These tests hold the
// indexed paths to what the general algorithm does: the same chart with events of 16 bytes
// never takes them, so both must answer alike, step for step.

/// Events that compare by their tens: `Loose(15) == Loose(10)`. One byte, but `==` is coarser
/// than the byte, so an event whose byte no rule names must still be compared with `==`.
struct Loose: Hashable, Sendable {
    let code: UInt8
    static func == (lhs: Loose, rhs: Loose) -> Bool { lhs.code / 10 == rhs.code / 10 }
    func hash(into hasher: inout Hasher) { hasher.combine(code / 10) }
}

enum Pulse: Hashable, Sendable, CaseIterable {
    case go, next, ping, toB, back, tick, raiseIt, stop, finish, unknown
}

/// The same events, 16 bytes each: no slot table, so `send` always takes the general path.
struct WidePulse: Hashable, Sendable {
    let pulse: Pulse
    var padding = 0
}

enum PS: Hashable, Sendable {
    case top, a, a1, a2, hist, b, b1, b2, p, r1, r1x, r1y, r1done, r2, r2x, r2y, fin
}

struct PulseLog: Hashable, Sendable {
    var steps: [String] = []
    var count = 0
}

/// A chart with every kind of step: nesting, an inherited and a targetless rule, a parallel
/// state, a final state in a region and at the top, shallow history, guards, an eventless
/// transition and a raised event. Every state logs its entry and exit.
func pulseChart<Ev: Hashable & Sendable>(_ e: @escaping (Pulse) -> Ev) -> StateMachineDefinition<PS, Ev, PulseLog> {
    func logged(_ state: PS) -> [StateElement<PS, Ev, PulseLog>] {
        StateBuilder.buildExpression(Entry("+\(state)") { $0.steps.append("+\(state)") })
            + StateBuilder.buildExpression(Exit("-\(state)") { $0.steps.append("-\(state)") })
    }
    func note(_ text: String) -> Action<PulseLog, Ev> { Action(text) { $0.steps.append(text) } }
    return StateMachineDefinition<PS, Ev, PulseLog>(initial: .top) {
        In(.top, initial: .a) {
            logged(.top)
            On(e(.stop), to: .fin, actions: [note("stop")])
            On(e(.ping), actions: [Action("count") { $0.count += 1 }])
            In(.a, initial: .a1) {
                logged(.a)
                History(.hist, .shallow)
                On(e(.toB), to: .b, actions: [note("a→b")])
                In(.a1) {
                    logged(.a1)
                    On(e(.next), to: .a2, actions: [note("a1→a2")])
                    On(e(.ping), actions: [note("a1 ping")])
                }
                In(.a2) {
                    logged(.a2)
                    On(e(.next), to: .a1, actions: [note("a2→a1")])
                    On(e(.raiseIt), actions: [note("raise"), .raise(e(.next))])
                }
            }
            In(.b, initial: .b1) {
                logged(.b)
                On(e(.back), to: .hist, actions: [note("back")])
                On(e(.go), to: .p, actions: [note("b→p")])
                In(.b1) {
                    logged(.b1)
                    On(e(.next), to: .b2, when: Guard("even") { $0.count % 2 == 0 }, actions: [note("b1→b2")])
                    On(e(.next), to: .b1, actions: [note("b1↺")])
                }
                In(.b2) {
                    logged(.b2)
                    Always(to: .b1, when: Guard("big") { $0.count > 3 }, actions: [note("always")])
                    On(e(.next), to: .b1, actions: [note("b2→b1")])
                }
            }
            Parallel(.p) {
                logged(.p)
                On(e(.go), to: .b, actions: [note("p→b")])
                In(.r1, initial: .r1x) {
                    logged(.r1)
                    In(.r1x) {
                        logged(.r1x)
                        On(e(.tick), to: .r1y, actions: [note("r1x→r1y")])
                    }
                    In(.r1y) {
                        logged(.r1y)
                        On(e(.tick), to: .r1x, actions: [note("r1y→r1x")])
                        On(e(.finish), to: .r1done, actions: [note("finish")])
                    }
                    In(.r1done, final: true) { logged(.r1done) }
                }
                In(.r2, initial: .r2x) {
                    logged(.r2)
                    In(.r2x) {
                        logged(.r2x)
                        On(e(.tick), to: .r2y, actions: [note("r2x→r2y")])
                    }
                    In(.r2y) {
                        logged(.r2y)
                        On(e(.tick), to: .r2x, actions: [note("r2y→r2x")])
                    }
                }
            }
        }
        In(.fin, final: true) { logged(.fin) }
    }
}

/// What a step shows a user, with the event type left out, so that the two machines compare.
func shown<Ev>(_ outcome: Outcome<PS, Ev>) -> String {
    switch outcome {
    case .transitioned(let transition): shown(transition)
    case .refused(let refusal): "refused \(refusal.state) \(refusal.reason)"
    }
}

func shown<Ev>(_ transition: Transition<PS, Ev>) -> String {
    let trigger: String
    switch transition.trigger {
    case .event: trigger = "event"
    case .raised: trigger = "raised"
    case .timer(let delay): trigger = "timer \(delay)"
    case .eventless: trigger = "always"
    case .done: trigger = "done"
    }
    return "\(transition.source)→\(transition.target) \(trigger) \(transition.isInternal)"
}

struct IndexedSendTests {
    enum Door: Hashable, Sendable { case closed, open, locked, gone }

    @Test func aLooseEventWhoseByteNoRuleNamesIsStillComparedWithEquals() {
        let flat = StateMachineDefinition<Door, Loose, Int>(initial: .closed) {
            In(.closed) { On(Loose(code: 10), to: .open) }
            In(.open) { On(Loose(code: 20), to: .closed) }
        }
        var machine = StateMachine(flat, context: 0)
        #expect(machine.send(Loose(code: 15)).transition?.target == .open)
        #expect(machine.send(Loose(code: 27)).transition?.target == .closed)
        #expect(machine.send(Loose(code: 33)).refusal?.reason == .noTransition)

        let nested = StateMachineDefinition<Door, Loose, Int>(initial: .closed) {
            In(.closed, initial: .locked) {
                On(Loose(code: 10), to: .open)
                In(.locked) {}
            }
            In(.open) { On(Loose(code: 20), to: .closed) }
        }
        var chart = StateMachine(nested, context: 0)
        #expect(chart.send(Loose(code: 15)).transition?.target == .open)
        #expect(chart.send(Loose(code: 27)).transition?.target == .closed)
        #expect(chart.state == .locked)
    }

    @Test func rulesForOneEventAreTriedInOrderAndFailedGuardsNamed() {
        let definition = StateMachineDefinition<Door, Pulse, Int>(initial: .closed) {
            In(.closed) {
                On(.go, to: .open, when: Guard("one") { $0 == 1 })
                On(.go, to: .locked, when: Guard("two") { $0 == 2 })
                On(.go) { $0 += 1 }
                On(.next, to: .gone, when: Guard("never") { _ in false })
                Refuse(.stop, "closed doors do not stop")
            }
            In(.open) { On(.go, to: .closed) }
            In(.locked) {}
            In(.gone, final: true) { On(.go, to: .closed) }
        }
        var machine = StateMachine(definition, context: 0)
        #expect(machine.send(.go).transition?.isInternal == true)
        #expect(machine.context == 1)
        #expect(machine.send(.go).transition?.target == .open)
        #expect(machine.send(.go).transition?.target == .closed)
        #expect(machine.send(.next).refusal?.reason == .guardFailed(["never"]))
        #expect(machine.send(.stop).refusal?.reason == .rejected("closed doors do not stop"))
        #expect(machine.send(.tick).refusal?.reason == .noTransition)
        machine.context = 2
        #expect(machine.send(.go).transition?.target == .locked)
        #expect(machine.send(.go).refusal?.reason == .noTransition)

        let ending = StateMachineDefinition<Door, Pulse, Int>(initial: .closed) {
            In(.closed) { On(.go, to: .gone) }
            In(.gone, final: true) { On(.go, to: .closed) }
        }
        var ended = StateMachine(ending, context: 0)
        ended.send(.go)
        #expect(ended.send(.go).refusal?.reason == .finalState)
        #expect(ended.state == .gone)
    }

    @Test(arguments: 0..<12)
    func plannedStepsAnswerAsTheGeneralAlgorithmDoes(seed: Int) {
        var narrow = StateMachine(pulseChart { $0 }, context: PulseLog())
        var wide = StateMachine(pulseChart { WidePulse(pulse: $0) }, context: PulseLog())
        #expect(narrow.configuration == wide.configuration)
        #expect(narrow.context == wide.context)
        var generator = SplitMix64(seed: UInt64(seed))
        for step in 0..<300 {
            let pulse = Pulse.allCases.randomElement(using: &generator) ?? .go
            var narrowSteps: [String] = []
            var wideSteps: [String] = []
            let narrowOutcome: Outcome<PS, Pulse>
            let wideOutcome: Outcome<PS, WidePulse>
            if step % 3 == 0 {
                narrowOutcome = narrow.send(pulse) { narrowSteps.append(shown($0)) }
                wideOutcome = wide.send(WidePulse(pulse: pulse)) { wideSteps.append(shown($0)) }
            } else {
                narrowOutcome = narrow.send(pulse)
                wideOutcome = wide.send(WidePulse(pulse: pulse))
            }
            #expect(shown(narrowOutcome) == shown(wideOutcome), "step \(step): \(pulse)")
            #expect(narrowSteps == wideSteps, "step \(step): \(pulse)")
            #expect(narrow.configuration == wide.configuration, "step \(step): \(pulse)")
            #expect(narrow.context == wide.context, "step \(step): \(pulse)")
            #expect(narrow.entryCount == wide.entryCount, "step \(step): \(pulse)")
            #expect(narrow.isFinished == wide.isFinished, "step \(step): \(pulse)")
            if narrow.configuration != wide.configuration || narrow.context != wide.context { break }
            if narrow.isFinished {
                // Start again, with a count that changes which guards hold.
                narrow = StateMachine(pulseChart { $0 }, context: PulseLog(count: step))
                wide = StateMachine(pulseChart { WidePulse(pulse: $0) }, context: PulseLog(count: step))
            }
        }
    }

    @Test func aTimedStateEnteredByAPlannedStepArmsForThatEntryOnly() throws {
        let definition = StateMachineDefinition<PS, Pulse, PulseLog>(initial: .top) {
            In(.top, initial: .a) {
                In(.a) { On(.next, to: .b) }
                In(.b) {
                    After(.seconds(5), to: .a)
                    On(.next, to: .b)
                }
            }
        }
        var machine = StateMachine(definition, context: PulseLog())
        machine.send(.next)
        let first = try #require(machine.armedTimers.first)
        machine.send(.next)  // leaves b and enters it again: the first entry's timer is stale
        let second = try #require(machine.armedTimers.first)
        #expect(machine.fire(first) == nil)
        #expect(machine.state == .b)
        #expect(machine.fire(second)?.target == .a)
        #expect(machine.state == .a)
    }

    @Test func aRestoredChartTakesPlannedStepsFromItsNewConfiguration() throws {
        var source = StateMachine(pulseChart { $0 }, context: PulseLog())
        source.send(.toB)
        source.send(.go)
        source.send(.tick)
        var restored = StateMachine(pulseChart { $0 }, context: PulseLog())
        try restored.restore(source.snapshot)
        #expect(restored.configuration == [.top, .p, .r1, .r1y, .r2, .r2y])
        restored.context.steps.removeAll()
        #expect(restored.send(.tick).transition.map(shown) == "r1y→r1x event false")
        #expect(restored.context.steps == ["-r2y", "-r1y", "r1y→r1x", "r2y→r2x", "+r1x", "+r2x"])
        #expect(restored.configuration == [.top, .p, .r1, .r1x, .r2, .r2x])
    }
}
