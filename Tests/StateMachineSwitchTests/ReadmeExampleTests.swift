import StateMachineSwitch
import Testing

// The README's and the DocC catalog's example, as written there.

enum Gate: Hashable, Sendable { case locked, open }
enum Push: Hashable, Sendable { case coin, push }
struct Count: Hashable, Sendable { var coins = 0 }

@StateMachineSwitch
struct Turnstile {
    static let definition = StateMachineDefinition<Gate, Push, Count>(initial: .locked) {
        In(.locked) { On(.coin, to: .open) { $0.coins += 1 } }
        In(.open) { On(.push, to: .locked) }
    }
}

@Suite struct ReadmeExampleTests {
    @Test func theTurnstileOpensOnACoin() {
        var gate = Turnstile(context: Count())
        #expect(gate.send(.coin).description == "locked → open on coin")
        #expect(gate.state == .open)
        #expect(gate.context.coins == 1)
        #expect(gate.send(.coin).refusal?.reason == .noTransition)
        #expect(Turnstile.interpreted(context: Count()).state == .locked)
    }
}
