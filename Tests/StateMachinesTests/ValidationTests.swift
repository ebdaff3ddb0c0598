import StateMachines
import Testing

struct ValidationTests {
    @Test func soundDefinitionHasNoDiagnostics() {
        #expect(trafficLight.validate().isEmpty)
    }

    @Test func unreachableStateIsNamed() {
        let definition = StateMachineDefinition<Light, Signal, Int>(initial: .green) {
            In(.green) { On(.next, to: .yellow) }
            In(.yellow) { On(.next, to: .green) }
            In(.red) { On(.next, to: .green) }
        }
        #expect(
            definition.validate() == [
                Diagnostic(
                    kind: .unreachableState, states: ["red"], events: [],
                    message: "state 'red' cannot be reached from the initial state 'green'")
            ])
    }

    @Test func deadEndIsANonFinalStateWithNoWayOut() {
        let definition = StateMachineDefinition<Light, Signal, Int>(initial: .green) {
            In(.green) { On(.next, to: .yellow) }
            In(.yellow) {
                On(.tick) { $0 += 1 }
                On(.repair, to: .yellow)
            }
        }
        let diagnostics = definition.validate()
        #expect(diagnostics.map(\.kind) == [.deadEnd])
        #expect(diagnostics.first?.states == ["yellow"])
        #expect(
            diagnostics.first?.description
                == "deadEnd: state 'yellow' is not final but has no transition or timer out of it")
    }

    @Test func finalStateIsNoDeadEnd() {
        let definition = StateMachineDefinition<Light, Signal, Int>(initial: .green) {
            In(.green) { On(.shutdown, to: .off) }
            In(.off, final: true)
        }
        #expect(definition.validate().isEmpty)
    }

    @Test func ruleAfterAnUnguardedRuleForTheSameEventConflicts() {
        let definition = StateMachineDefinition<Light, Signal, Int>(initial: .green) {
            In(.green) {
                On(.next, to: .yellow)
                On(.next, to: .red, when: Guard("never reached") { _ in true })
            }
            In(.yellow) { On(.next, to: .green) }
            In(.red) { On(.next, to: .green) }
        }
        let diagnostics = definition.validate()
        #expect(diagnostics.map(\.kind) == [.conflictingTransitions])
        #expect(diagnostics.first?.states == ["green"])
        #expect(diagnostics.first?.events == ["next"])
    }

    @Test func transitionToAnUndeclaredStateIsReported() {
        let definition = StateMachineDefinition<Light, Signal, Int>(initial: .green) {
            In(.green) { On(.next, to: .yellow) }
        }
        let diagnostics = definition.validate()
        #expect(diagnostics.map(\.kind) == [.undeclaredState])
        #expect(diagnostics.first?.message == "state 'yellow' is a target but is never declared with In(...)")
        #expect(definition.states == [.green, .yellow])
        #expect(definition.declaredStates == [.green])
    }

    @Test func timerShadowedByAShorterOneNeverFires() {
        let definition = StateMachineDefinition<Light, Signal, Int>(initial: .green) {
            In(.green) {
                After(.seconds(1), to: .yellow)
                After(.seconds(2), to: .red)
            }
            In(.yellow) { On(.next, to: .green) }
            In(.red) { On(.next, to: .green) }
        }
        let diagnostics = definition.validate()
        #expect(diagnostics.map(\.kind) == [.timerNeverFires])
        #expect(
            diagnostics.first?.message
                == "the timer after 2 s in state 'green' never fires: a timer after 1 s always leaves first")
    }

    @Test func timerInAFinalStateNeverFires() {
        let definition = StateMachineDefinition<Light, Signal, Int>(initial: .green) {
            In(.green) { On(.next, to: .off) }
            In(.off, final: true) { After(.seconds(1), to: .green) }
        }
        #expect(definition.validate().map(\.kind) == [.timerNeverFires])
    }
}
