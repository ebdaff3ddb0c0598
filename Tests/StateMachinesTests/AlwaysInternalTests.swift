import StateMachines
import Testing

/// `Always(to:when:internal:)`: an eventless transition with SCXML's `type="internal"`.
struct AlwaysInternalTests {
    enum A: String, Hashable, Sendable { case a, a1, a2 }
    enum N: Hashable, Sendable { case go }

    /// `Always(to:internal:)` from a compound state to a descendant keeps the state active.
    @Test func internalEventlessTransitionKeepsItsCompoundSource() {
        func definition(internal keepsSource: Bool) -> StateMachineDefinition<A, N, [String]> {
            StateMachineDefinition(initial: .a) {
                In(.a, initial: .a1) {
                    Entry("+a") { $0.append("+a") }
                    Exit("-a") { $0.append("-a") }
                    Always(to: .a2, when: Guard("once") { !$0.contains("always") }, internal: keepsSource) {
                        $0.append("always")
                    }
                    In(.a1) { Exit("-a1") { $0.append("-a1") } }
                    In(.a2) { Entry("+a2") { $0.append("+a2") } }
                }
            }
        }
        let kept = StateMachine(definition(internal: true), context: [])
        #expect(kept.configuration == [.a, .a2])
        #expect(kept.context == ["+a", "-a1", "always", "+a2"])
        let left = StateMachine(definition(internal: false), context: [])
        #expect(left.context == ["+a", "-a1", "-a", "always", "+a", "+a2"])
        #expect(definition(internal: true).rules(of: .a).first?.keepsSource == true)
    }

    /// The SCXML export writes the type, as it does for `On(_:to:internal:)`.
    @Test func internalEventlessTransitionIsExportedAsInternal() {
        let definition = StateMachineDefinition<A, N, Int>(initial: .a) {
            In(.a, initial: .a1) {
                Always(to: .a2, when: Guard("never") { _ in false }, internal: true)
                In(.a1)
                In(.a2)
            }
        }
        #expect(definition.scxml(name: "always").contains("type=\"internal\""))
    }
}
