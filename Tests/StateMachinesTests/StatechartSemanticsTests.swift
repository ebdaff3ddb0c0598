import StateMachines
import Testing

/// The semantics of W3C SCXML 1.0 (Appendix D) on the chart of ChartFixtures.swift: entry into
/// compound and parallel states, inherited transitions, exit and entry order, internal and
/// external transitions, conflicts, done events and history.
struct StatechartSemanticsTests {
    @Test func startingEntersTheInitialChildOutermostFirst() {
        var machine = StateMachine(chart, context: Log())
        #expect(machine.configuration == [.a, .a1])
        #expect(machine.state == .a1)
        #expect(machine.drain() == ["+a", "+a1"])
        #expect(chart.isStatechart)
    }

    @Test func innermostMatchingRuleWinsOverTheAncestors() {
        var machine = StateMachine(chart, context: Log())
        machine.send(.ping)
        #expect(machine.context.count == 100)
        machine.send(.next)  // a1 → a2: now only a's `ping` matches
        machine.send(.ping)
        #expect(machine.context.count == 101)
    }

    @Test func transitionIntoACompoundStateEntersItsInitialDescendants() {
        var machine = StateMachine(chart, context: Log())
        _ = machine.drain()
        let outcome = machine.send(.next)
        #expect(outcome.transition == Transition(source: .a1, target: .a2, trigger: .event(.next), isInternal: false))
        #expect(machine.configuration == [.a, .a2, .a21])
        #expect(machine.drain() == ["-a1", "a1→a2", "+a2", "+a21"])
    }

    @Test func exitsInnermostFirstUpToTheCommonAncestorThenEntersDown() {
        var machine = StateMachine(chart, context: Log())
        machine.send(.next)
        _ = machine.drain()
        machine.send(.toB)  // a's rule, taken from a21: exits a21, a2, a; enters b, b1
        #expect(machine.configuration == [.b, .b1])
        #expect(machine.drain() == ["-a21", "-a2", "-a", "a→b", "+b", "+b1"])
    }

    @Test func externalTransitionToADescendantExitsAndReentersTheSource() {
        var machine = StateMachine(chart, context: Log())
        _ = machine.drain()
        machine.send(.outer)
        #expect(machine.configuration == [.a, .a2, .a22])
        #expect(machine.drain() == ["-a1", "-a", "outer", "+a", "+a2", "+a22"])
    }

    @Test func internalTransitionToADescendantKeepsTheSource() {
        var machine = StateMachine(chart, context: Log())
        _ = machine.drain()
        machine.send(.inner)
        #expect(machine.configuration == [.a, .a2, .a22])
        #expect(machine.drain() == ["-a1", "inner", "+a2", "+a22"])
    }

    @Test func parallelStateEntersEveryRegionInDocumentOrder() {
        var machine = StateMachine(chart, context: Log())
        machine.send(.toB)
        _ = machine.drain()
        machine.send(.toP)
        #expect(machine.configuration == [.p, .r1, .r1x, .r2, .r2x])
        #expect(machine.drain() == ["-b1", "-b", "+p", "+r1", "+r1x", "+r2", "+r2x"])
    }

    @Test func everyRegionTakesTheEventInOneMicrostep() {
        var machine = StateMachine(chart, context: Log())
        machine.send(.toB)
        machine.send(.toP)
        _ = machine.drain()
        var seen: [Transition<S, E>] = []
        let outcome = machine.send(.go) { seen.append($0) }
        #expect(outcome.transition?.source == .r1x)
        #expect(seen.map(\.source) == [.r1x, .r2x])
        // Both exits first (reverse document order), then both actions, then both entries.
        #expect(machine.drain() == ["-r2x", "-r1x", "r1x→r1y", "r2x→r2y", "+r1y", "+r2y"])
        #expect(machine.configuration == [.p, .r1, .r1y, .r2, .r2y])
    }

    @Test func parallelStateIsDoneWhenEveryRegionIsFinal() {
        var machine = StateMachine(chart, context: Log())
        machine.send(.toB)
        machine.send(.toP)
        machine.send(.go)
        machine.send(.finish1)
        #expect(machine.configuration == [.p, .r1, .r1end, .r2, .r2y])
        _ = machine.drain()
        var seen: [Trigger<E>] = []
        machine.send(.finish2) { seen.append($0.trigger) }
        #expect(seen == [.event(.finish2), .done])
        #expect(machine.drain() == ["-r2y", "+r2end", "-r2end", "-r2", "-r1end", "-r1", "-p", "p done", "+end"])
        #expect(machine.isFinished)
        #expect(machine.send(.go).refusal?.reason == .finalState)
    }

    @Test func shallowHistoryResumesTheChildNotItsDescendants() {
        var machine = StateMachine(chart, context: Log())
        machine.send(.next)
        machine.send(.next)  // a / a2 / a22
        machine.send(.toB)
        _ = machine.drain()
        machine.send(.back)
        #expect(machine.configuration == [.a, .a2, .a21])
        #expect(machine.drain() == ["-b1", "-b", "back", "+a", "+a2", "+a21"])
    }

    @Test func deepHistoryResumesEveryActiveDescendant() {
        var machine = StateMachine(chart, context: Log())
        machine.send(.next)
        machine.send(.next)
        machine.send(.toB)
        machine.send(.deep)
        #expect(machine.configuration == [.a, .a2, .a22])
    }

    @Test func historyWithoutRecordEntersItsDefault() {
        var machine = StateMachine(chart, context: Log())
        machine.restoreOrRecord(  // straight into b, a never left: no history yet
            MachineSnapshot(state: .b1, configuration: [.b, .b1], history: [], timers: nil, context: Log()))
        machine.send(.back)
        #expect(machine.configuration == [.a, .a2, .a21])  // the shallow history's default: a2
        var other = StateMachine(chart, context: Log())
        try? other.restore(
            MachineSnapshot(state: .b1, configuration: [.b, .b1], history: [], timers: nil, context: Log()))
        other.send(.deep)
        #expect(other.configuration == [.a, .a1])  // no default: a's initial state
    }

    @Test func refusalInAChartNamesTheLeafAndTheReason() {
        var machine = StateMachine(chart, context: Log())
        let outcome = machine.send(.finish1)
        #expect(outcome.refusal == Refusal(state: .a1, event: .finish1, reason: .noTransition))
    }
}

extension StateMachine {
    /// `restore` for tests that know the snapshot is valid.
    mutating func restoreOrRecord(_ snapshot: MachineSnapshot<State, Context>) {
        do { try restore(snapshot) } catch { Issue.record("restore failed: \(error)") }
    }
}

/// Deep history over a parallel state restores every region's leaf, not a region's initial one.
struct DeepHistoryOverRegionsTests {
    enum Q: Hashable, Sendable { case on, h, p, r1, x1, y1, r2, x2, y2, off }
    enum V: Hashable, Sendable { case move, pause, resume }

    @Test func deepHistoryRestoresEachRegion() {
        let definition = StateMachineDefinition<Q, V, Int>(initial: .on) {
            In(.on) {
                History(.h, .deep)
                On(.pause, to: .off)
                Parallel(.p) {
                    In(.r1, initial: .x1) {
                        In(.x1) { On(.move, to: .y1) }
                        In(.y1)
                    }
                    In(.r2, initial: .x2) {
                        In(.x2) { On(.move, to: .y2) }
                        In(.y2)
                    }
                }
            }
            In(.off) { On(.resume, to: .h) }
        }
        var machine = StateMachine(definition, context: 0)
        machine.send(.move)
        machine.send(.pause)
        machine.send(.resume)
        #expect(machine.configuration == [.on, .p, .r1, .y1, .r2, .y2])
    }
}
