import StateMachines
import Testing

/// The samples of the Statecharts article (`Statecharts.md`), as written there: they must compile
/// and do what their comments say. Change both together.
struct StateMachinesDocSamplesTests {
    enum Player: Hashable, Sendable { case on, paused, playing, resume, off }
    enum Control: Hashable, Sendable { case play, pause, power }

    @Test func nestingAndHistory() {
        let player = StateMachineDefinition<Player, Control, Int>(initial: .on) {
            In(.on, initial: .paused) {
                History(.resume, .shallow, default: .paused)
                On(.power, to: .off)  // from .paused and .playing alike
                In(.paused) { On(.play, to: .playing) { $0 += 1 } }
                In(.playing) { On(.pause, to: .paused) }
            }
            In(.off) { On(.power, to: .resume) }
        }
        var machine = StateMachine(player, context: 0)
        machine.send(.play)
        machine.send(.power)  // exits playing, then on; enters off
        #expect(machine.configuration == [.off])
        machine.send(.power)  // back through the history state
        #expect(machine.configuration == [.on, .playing])
        #expect(player.validate().isEmpty)
    }

    enum Till: PayloadEvent {
        case pay(cents: Int), cancel
        enum Kind: Hashable, Sendable { case pay, cancel }
        var kind: Kind {
            switch self {
            case .pay: .pay
            case .cancel: .cancel
            }
        }
    }
    enum Sale: Hashable, Sendable { case open, paid }

    @Test func eventsWithData() {
        let till = StateMachineDefinition<Sale, Till, Int>(initial: .open) {
            In(.open) {
                On(.pay, to: .paid) { total, event in if case .pay(let cents) = event { total += cents } }
            }
            In(.paid, final: true)
        }
        var sale = StateMachine(till, context: 0)
        #expect(sale.can(.pay(cents: 990)))  // true, and nothing ran
        #expect(sale.context == 0)
        sale.send(.pay(cents: 990))
        #expect(sale.context == 990)
        #expect(sale.isFinished)
    }
}
