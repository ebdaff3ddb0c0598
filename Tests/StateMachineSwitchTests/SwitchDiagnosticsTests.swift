import Foundation
import Testing

/// What the macro cannot compile is a build error that names it, never a `switch` that answers
/// differently from the interpreter. Each case compiles a file with `swiftc` and the macro this
/// build made, as a user's build does (``MacroCompiler``).
@Suite struct SwitchDiagnosticsTests {
    @Test(arguments: [
        ("History(.s02, .shallow)", "history states (History)"),
        ("After(.seconds(5), to: .s02)", "timed transitions (After)"),
        ("Always(to: .s02)", "eventless transitions (Always)"),
        ("OnDone(to: .s02)", "done transitions (OnDone)"),
        ("On(.go, actions: [.raise(.go)])", "raised events (.raise)"),
    ])
    func whatNeedsTheInterpreterIsNamed(part: String, named: String) throws {
        let messages = try diagnostics(
            """
            @StateMachineSwitch
            struct M {
                static let definition = StateMachineDefinition<S, E, C>(initial: .s01) {
                    In(.s01) { \(part) }
                    In(.s02)
                }
            }
            """)
        #expect(messages.count == 1)
        #expect(messages.first?.contains(named) == true, "\(messages)")
        #expect(messages.first?.contains("run this definition with StateMachine") == true)
    }

    @Test(arguments: [
        ("In(.s01) { On(.go, to: .nowhere) }", ".nowhere is a target but no In(.nowhere) declares it"),
        ("In(.s01) { if flag { On(.go) } }", "only In, Parallel, On, Refuse, Entry and Exit calls"),
        ("In(.s01); In(.s01)", ".s01 is declared twice"),
        (
            "In(.s01, initial: .s03) { In(.s02) }; In(.s03)",
            ".s03, the initial state of .s01, is not one of its children"
        ),
        ("In(.s01) { On(.go, when: isReady) }", "write the guard in place"),
        ("On(.go)", "the top level of a definition holds states"),
        ("In(.s01) { On(.pay) {}; On(.pay(5)) {} }", ".pay(5) and .pay name the same case"),
    ])
    func aDefinitionItCannotReadIsNamed(states: String, message: String) throws {
        let messages = try diagnostics(
            """
            @StateMachineSwitch
            struct M {
                static let definition = StateMachineDefinition<S, E, C>(initial: .s01) { \(states) }
            }
            """)
        #expect(messages.contains { $0.contains(message) }, "\(messages)")
    }

    @Test func theTypesMustBeSpelledOut() throws {
        let messages = try diagnostics(
            """
            @StateMachineSwitch
            struct M {
                static let definition = StateMachineDefinition(initial: S.s01) { In(S.s01) }
            }
            """)
        #expect(messages.first?.contains("its three types spelled out") == true, "\(messages)")
    }

    @Test func aTypeWithoutADefinitionIsToldWhatIsMissing() throws {
        let messages = try diagnostics("@StateMachineSwitch\nstruct M { static let other = 1 }")
        #expect(messages.first?.contains("which it does not find") == true, "\(messages)")
    }

    @Test func tooManyConfigurationsAreLeftToTheInterpreter() throws {
        // Ten regions of two states each, every region toggled by its own event: 1,024 configurations.
        let regions = (0..<10).map { region in
            "In(.r\(region), initial: .a\(region)) { In(.a\(region)) { On(.e\(region), to: .b\(region)) }; "
                + "In(.b\(region)) { On(.e\(region), to: .a\(region)) } }"
        }.joined(separator: "; ")
        let messages = try diagnostics(
            """
            @StateMachineSwitch
            struct M {
                static let definition = StateMachineDefinition<S, E, C>(initial: .p) { Parallel(.p) { \(regions) } }
            }
            """)
        #expect(messages.first?.contains("more than 512 configurations") == true, "\(messages)")
    }

    @Test func aClosureTakesTheParametersItUses() throws {
        // The `switch` calls each closure with as many arguments as it names: one too many or too
        // few does not compile. A nested closure's `$1` is its own.
        let result = try MacroCompiler.typecheck(
            """
            struct Car: Sendable { var speed = 0; var log: [String] = []; var items: [Int] = []; var last: E = .go }
            func say() {}
            @StateMachineSwitch
            struct M {
                static let definition = StateMachineDefinition<S, E, Car>(initial: .s01) {
                    In(.s01) {
                        Entry { $0.speed += 5 }
                        Exit { _ in say() }
                        On(.go, to: .s02) { $0.log.append("\\($1)") }
                    }
                    In(.s02) {
                        On(.go, to: .s01) { car, event in car.last = event }
                        On(.pay(1)) { $0.items = $0.items.sorted { $0 < $1 } }
                    }
                }
            }
            """)
        #expect(result.errors.isEmpty, "\(result.errors)")
    }
}

/// The messages the macro reports for `source`.
private func diagnostics(_ source: String) throws -> [String] {
    try MacroCompiler.typecheck(source).macroMessages
}
