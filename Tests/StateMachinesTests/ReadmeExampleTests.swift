import StateMachines
import Testing

/// The README's first example, as written there: it must compile and do what its comments say.
struct ReadmeExampleTests {
    enum Door: Hashable, Sendable { case closed, open }
    enum Push: Hashable, Sendable { case open, close }

    @Test func doorExampleDoesWhatTheReadmeSays() {
        let door = StateMachineDefinition<Door, Push, Int>(initial: .closed) {
            In(.closed) { On(.open, to: .open) { $0 += 1 } }  // counts the openings
            In(.open) {
                On(.close, to: .closed); After(.seconds(30), to: .closed)
            }
        }
        var machine = StateMachine(door, context: 0)
        #expect(machine.send(.open).description == "closed → open on open")
        #expect(machine.send(.open).description == "refused: no transition for event 'open' in state 'open'")
        #expect(machine.context == 1)
        #expect(door.validate().isEmpty)
    }
}
