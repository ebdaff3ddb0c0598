import StateMachines
import Testing

/// The descriptions of `Transition`, `Outcome` and `Refusal`: one readable line each.
struct ValueDescriptionTests {
    @Test(arguments: [
        (Trigger<Signal>.event(.next), "green → yellow on next"),
        (.timer(.milliseconds(1_500)), "green → yellow on after 1.5 s"),
        (.raised(.tick), "green → yellow on raised tick"),
        (.eventless, "green → yellow on always"),
        (.done, "green → yellow on done.state.green"),
    ])
    func aTransitionNamesItsSourceTargetAndTrigger(_ trigger: Trigger<Signal>, _ expected: String) {
        let transition = Transition<Light, Signal>(source: .green, target: .yellow, trigger: trigger, isInternal: false)
        #expect(transition.description == expected)
        #expect("\(Outcome.transitioned(transition))" == expected)
    }

    @Test func anInternalTransitionSaysSo() {
        let transition = Transition<Light, Signal>(
            source: .green, target: .green, trigger: .event(.tick), isInternal: true)
        #expect("\(transition)" == "green on tick (internal)")
    }

    @Test(arguments: [
        (Refusal<Light, Signal>.Reason.noTransition, "no transition for event 'next' in state 'red'"),
        (.guardFailed(["ticked", "at night"]), "event 'next' in state 'red' refused by guard 'ticked', 'at night'"),
        (.rejected("nothing to repair"), "nothing to repair"),
        (.finalState, "state 'red' is final: event 'next' ignored"),
        (.stopped, "the runtime is stopped: event 'next' ignored"),
    ])
    func aRefusalNamesTheEventTheStateAndWhy(_ reason: Refusal<Light, Signal>.Reason, _ expected: String) {
        let refusal = Refusal<Light, Signal>(state: .red, event: .next, reason: reason)
        #expect("\(refusal)" == expected)
        #expect("\(Outcome.refused(refusal))" == "refused: " + expected)
    }
}
