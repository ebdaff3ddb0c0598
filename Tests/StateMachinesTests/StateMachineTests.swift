import StateMachines
import Testing

struct StateMachineTests {
    @Test func newMachineIsInTheInitialStateAndRanItsEntryActions() {
        let machine = StateMachine(trafficLight, context: Trace())
        #expect(machine.state == .green)
        #expect(machine.context.steps == ["enter green"])
    }

    @Test func externalTransitionRunsExitThenTransitionThenEntryActions() {
        var machine = StateMachine(trafficLight, context: Trace())
        let outcome = machine.send(.next)
        #expect(
            outcome
                == .transitioned(Transition(source: .green, target: .yellow, trigger: .event(.next), isInternal: false))
        )
        #expect(machine.state == .yellow)
        #expect(machine.context.steps == ["enter green", "exit green", "green→yellow", "enter yellow"])
    }

    @Test func internalTransitionRunsOnlyItsActions() {
        var machine = StateMachine(trafficLight, context: Trace())
        let entries = machine.entryCount
        let outcome = machine.send(.tick)
        #expect(outcome.transition?.isInternal == true)
        #expect(machine.state == .green)
        #expect(machine.context.ticks == 1)
        #expect(machine.context.steps == ["enter green"])
        #expect(machine.entryCount == entries)
    }

    @Test func selfTransitionLeavesAndReentersTheState() {
        var machine = StateMachine(trafficLight, context: Trace())
        let entries = machine.entryCount
        machine.send(.repair)
        #expect(machine.context.steps == ["enter green", "exit green", "green→green", "enter green"])
        #expect(machine.entryCount == entries + 1)
    }

    @Test(arguments: [(false, Light.red, "yellow→red"), (true, Light.green, "yellow→green")])
    func firstRuleWhoseGuardHoldsIsTaken(night: Bool, expected: Light, step: String) {
        var machine = StateMachine(trafficLight, context: Trace(night: night))
        machine.send(.next)
        machine.send(.next)
        #expect(machine.state == expected)
        #expect(machine.context.steps.contains(step))
    }

    @Test func everyGuardFailingIsARefusalNamingTheGuards() {
        var machine = StateMachine(trafficLight, context: Trace())
        machine.send(.next)
        machine.send(.next)
        let outcome = machine.send(.next)
        #expect(outcome.refusal == Refusal(state: .red, event: .next, reason: .guardFailed(["ticked"])))
        #expect(outcome.description == "refused: event 'next' in state 'red' refused by guard 'ticked'")
        #expect(machine.state == .red)
    }

    @Test func eventWithoutTransitionIsARefusalNotACrash() {
        var machine = StateMachine(trafficLight, context: Trace())
        machine.send(.next)
        let before = machine.context
        let outcome = machine.send(.tick)
        #expect(outcome.refusal?.reason == .noTransition)
        #expect(outcome.refusal?.description == "no transition for event 'tick' in state 'yellow'")
        #expect(machine.context == before)
    }

    @Test func refuseGivesItsReason() {
        var machine = StateMachine(trafficLight, context: Trace())
        machine.send(.next)
        let outcome = machine.send(.repair)
        #expect(outcome.refusal?.reason == .rejected("nothing to repair"))
        #expect(outcome.refusal?.description == "nothing to repair")
        #expect(machine.state == .yellow)
    }

    @Test func finalStateTakesNoMoreEvents() {
        var machine = StateMachine(trafficLight, context: Trace())
        machine.send(.fault)
        #expect(machine.isFinished)
        #expect(machine.send(.next).refusal?.reason == .finalState)
        #expect(machine.state == .off)
    }

    @Test func timerArmedBeforeLeavingTheStateIsStale() throws {
        var machine = StateMachine(trafficLight, context: Trace())
        machine.send(.next)
        let timer = try #require(machine.armedTimers.first)
        #expect(timer.delay == .seconds(3))
        machine.send(.next)  // yellow → red
        #expect(machine.fire(timer) == nil)
        #expect(machine.state == .red)
    }

    @Test func dueTimerTakesItsTransition() throws {
        var machine = StateMachine(trafficLight, context: Trace())
        machine.send(.next)
        let timer = try #require(machine.armedTimers.first)
        let transition = machine.fire(timer)
        #expect(
            transition == Transition(source: .yellow, target: .red, trigger: .timer(.seconds(3)), isInternal: false))
        #expect(transition?.description == "yellow → red on after 3 s")
        #expect(machine.context.steps.suffix(3) == ["exit yellow", "yellow timed out", "enter red"])
        #expect(machine.fire(timer) == nil)
    }

    @Test func snapshotRestoresStateAndContextWithoutEntryActions() throws {
        var machine = StateMachine(trafficLight, context: Trace())
        machine.send(.next)
        let snapshot = machine.snapshot
        var other = StateMachine(trafficLight, context: Trace())
        try other.restore(snapshot)
        #expect(other.state == .yellow)
        #expect(other.context == snapshot.context)
    }
}
