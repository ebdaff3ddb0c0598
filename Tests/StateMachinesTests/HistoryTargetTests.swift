import StateMachines
import Testing

/// Transitions that target a history state, as SCXML's Appendix D takes them, each test written
/// before its fix and seen failing on the code of the time.
struct HistoryTargetTests {
    enum Q: String, Hashable, Sendable { case s01, s02, s03, s04, out }
    enum V: Hashable, Sendable { case e1, leave, back }

    /// A transition that exits the history's parent records the history before the entry set is
    /// computed: the history it enters is the one this exit records (SCXML's `microstep`).
    @Test func transitionThatExitsTheParentEntersTheHistoryItRecords() {
        let definition = StateMachineDefinition<Q, V, Int>(initial: .s01) {
            In(.s01, initial: .s03) {
                History(.s04, .shallow, default: .s02)
                On(.e1, to: .s04)
                In(.s02)
                In(.s03)
            }
        }
        var machine = StateMachine(definition, context: 0)
        machine.send(.e1)
        #expect(machine.configuration == [.s01, .s03])  // Appendix D; was [s01, s02]
    }

    /// The same through a timed transition, which takes its own path through the machine.
    @Test func timedTransitionThatExitsTheParentEntersTheHistoryItRecords() throws {
        let definition = StateMachineDefinition<Q, V, Int>(initial: .s01) {
            In(.s01, initial: .s03) {
                History(.s04, .shallow, default: .s02)
                After(.seconds(1), to: .s04)
                In(.s02)
                In(.s03)
            }
        }
        var machine = StateMachine(definition, context: 0)
        let timer = try #require(machine.armedTimers.first)
        machine.fire(timer)
        #expect(machine.configuration == [.s01, .s03])
    }

    enum R: String, Hashable, Sendable { case p, h, m, x, y, out }
    enum W: Hashable, Sendable { case leave, resume, again }

    /// When the remembered states lie below the transition's domain, the states between the
    /// history's parent and them are exited and entered again (as sismic does), never entered
    /// twice without an exit as Appendix D's pseudo-code does.
    @Test func statesBetweenTheParentAndTheRememberedOnesAreExitedAndReentered() {
        let definition = StateMachineDefinition<R, W, [String]>(initial: .p) {
            In(.p, initial: .m) {
                History(.h, .deep)
                On(.leave, to: .out)
                In(.m, initial: .x) {
                    Entry("+m") { $0.append("+m") }
                    Exit("-m") { $0.append("-m") }
                    In(.x) {
                        Entry("+x") { $0.append("+x") }
                        Exit("-x") { $0.append("-x") }
                        On(.again, to: .h)
                    }
                    In(.y)
                }
            }
            In(.out) { On(.resume, to: .h) }
        }
        var machine = StateMachine(definition, context: [])
        machine.send(.leave)  // records h = [x]
        machine.send(.resume)
        machine.context.removeAll()
        machine.send(.again)  // from x, to the history of p, which holds x
        #expect(machine.configuration == [.p, .m, .x])
        #expect(machine.context == ["-x", "-m", "+m", "+x"])  // Appendix D: ["-x", "+m", "+x"]
        let entries = machine.context.filter { $0 == "+m" }.count
        let exits = machine.context.filter { $0 == "-m" }.count
        #expect(entries == exits)
    }

    /// The states in between are entered anew: their timers of the earlier entry are stale and
    /// new ones are armed, as for any other re-entry.
    @Test func statesBetweenRestartTheirTimers() throws {
        let definition = StateMachineDefinition<R, W, Int>(initial: .p) {
            In(.p, initial: .m) {
                History(.h, .deep)
                On(.leave, to: .out)
                In(.m, initial: .x) {
                    After(.seconds(5), to: .y)
                    In(.x) { On(.again, to: .h) }
                    In(.y)
                }
            }
            In(.out) { On(.resume, to: .h) }
        }
        var machine = StateMachine(definition, context: 0)
        machine.send(.leave)
        machine.send(.resume)
        let before = try #require(machine.armedTimers.first)
        machine.send(.again)
        let after = try #require(machine.armedTimers.first)
        #expect(after != before)
        #expect(machine.fire(before) == nil)  // stale: m was exited
        #expect(machine.fire(after) != nil)
        #expect(machine.configuration == [.p, .m, .y])
    }
}
