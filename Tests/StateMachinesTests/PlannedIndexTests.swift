import Testing

@testable import StateMachines

// A statechart machine keeps `run.planned`, the index of its configuration among the plans the
// definition made, so that `send` finds the planned step without hashing. These tests hold
// `send` to the general algorithm (the same chart with 16-byte events, which has no plans) when
// that index is wrong, and when the machine is copied, restored or sent an event with no slot.

struct PlannedIndexTests {
    /// A narrow machine and a wide one moved through the same events, so that they compare.
    func pair(_ pulses: [Pulse]) -> (StateMachine<PS, Pulse, PulseLog>, StateMachine<PS, WidePulse, PulseLog>) {
        var narrow = StateMachine(pulseChart { $0 }, context: PulseLog())
        var wide = StateMachine(pulseChart { WidePulse(pulse: $0) }, context: PulseLog())
        for pulse in pulses {
            narrow.send(pulse)
            wide.send(WidePulse(pulse: pulse))
        }
        return (narrow, wide)
    }

    /// Sends every pulse in turn to both machines and expects the same answers.
    func expectAlike(
        _ narrow: inout StateMachine<PS, Pulse, PulseLog>, _ wide: inout StateMachine<PS, WidePulse, PulseLog>,
        _ pulses: [Pulse], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for pulse in pulses {
            let answer = shown(narrow.send(pulse))
            #expect(answer == shown(wide.send(WidePulse(pulse: pulse))), "\(pulse)", sourceLocation: sourceLocation)
            #expect(narrow.configuration == wide.configuration, "\(pulse)", sourceLocation: sourceLocation)
            #expect(narrow.context == wide.context, "\(pulse)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [Int.max, 1_000_000, 256, -3, Int.min])
    func aPlannedIndexOutOfRangeIsLookedUpAgainNotRead(index: Int) {
        var (narrow, wide) = pair([.next])
        narrow.run.planned = index
        expectAlike(&narrow, &wide, [.next, .toB, .go, .tick, .tick, .go, .back])
    }

    @Test func aPlannedIndexOfAnotherConfigurationIsNotTrusted() throws {
        // Where the plans put configuration [top, a, a2]: a machine there reports it.
        var elsewhere = StateMachine(pulseChart { $0 }, context: PulseLog())
        elsewhere.send(.next)
        #expect(elsewhere.configuration == [.top, .a, .a2])
        let isPlanned = if case .step = elsewhere.plannedCell(for: .raiseIt) { true } else { false }
        #expect(isPlanned)
        let other = elsewhere.run.planned
        var (narrow, wide) = pair([])
        #expect(narrow.configuration == [.top, .a, .a1])
        narrow.run.planned = other
        // In a1, `next` goes to a2 and `raiseIt` is refused; a2's plans would go back to a1 and raise.
        expectAlike(&narrow, &wide, [.next, .next, .raiseIt, .next, .raiseIt, .toB, .back])
        #expect(narrow.configuration == wide.configuration)
    }

    @Test func aCopyGoesOnFromItsOwnConfigurationAndLeavesTheOriginalAlone() {
        var (narrow, wide) = pair([.toB])
        var narrowCopy = narrow
        var wideCopy = wide
        expectAlike(&narrowCopy, &wideCopy, [.go, .tick, .finish])
        expectAlike(&narrow, &wide, [.next, .next, .back, .next, .raiseIt])
        expectAlike(&narrowCopy, &wideCopy, [.tick, .go, .back, .stop, .next])
    }

    @Test func aMachineRestoredOverAPlannedOneTakesTheStepsOfItsNewConfiguration() throws {
        var (source, wideSource) = pair([.toB, .go, .tick])
        var (narrow, wide) = pair([.next])  // planned, in a2
        try narrow.restore(source.snapshot)
        try wide.restore(wideSource.snapshot)
        expectAlike(&narrow, &wide, [.tick, .finish, .tick, .go, .back, .raiseIt])
        // Restored back to where it was planned before, from a snapshot of its own past.
        let early = pair([.next]).0.snapshot
        try narrow.restore(early)
        try wide.restore(pair([.next]).1.snapshot)
        expectAlike(&narrow, &wide, [.raiseIt, .next, .toB, .go])
        expectAlike(&source, &wideSource, [.tick, .go])
    }

    @Test func anEventNoRuleNamesIsRefusedInEveryConfiguration() {
        var (narrow, wide) = pair([])
        for pulses in [[], [.next], [.toB], [.toB, .go], [.toB, .go, .tick]] as [[Pulse]] {
            expectAlike(&narrow, &wide, pulses + [.unknown])
            #expect(narrow.send(.unknown).refusal?.reason == .noTransition)
        }
    }
}
