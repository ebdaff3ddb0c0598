import StateMachines
import Testing

struct DiagramTests {
    let definition = StateMachineDefinition<Light, Signal, Trace>(initial: .green) {
        In(.green) {
            Entry("lamp on") { _ in }
            On(.next, to: .yellow, when: Guard("daytime") { !$0.night })
            On(.tick, actions: [Action("count") { $0.ticks += 1 }])
        }
        In(.yellow) { After(.milliseconds(1_500), to: .off) }
        In(.off, final: true)
    }

    @Test func mermaidDrawsStatesTransitionsTimersAndFinalStates() {
        #expect(
            definition.mermaid() == """
                stateDiagram-v2
                    [*] --> green
                    green : entry / lamp on
                    green : tick / count
                    green --> yellow : next [daytime]
                    yellow --> off : after 1.5 s
                    off --> [*]
                """)
    }

    @Test func dotDrawsTheSameGraph() {
        #expect(
            definition.dot() == """
                digraph StateMachine {
                    rankdir=LR;
                    node [shape=box, style=rounded];
                    __start [shape=point];
                    __start -> green;
                    green [label="green\\nentry / lamp on\\ntick / count"];
                    yellow [label="yellow"];
                    off [label="off", peripheries=2];
                    green -> yellow [label="next [daytime]"];
                    yellow -> off [label="after 1.5 s", style=dashed];
                }
                """)
    }
}
