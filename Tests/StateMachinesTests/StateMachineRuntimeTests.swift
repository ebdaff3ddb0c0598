import BehaviorKitTesting
import Foundation
import StateMachines
import Testing

struct StateMachineRuntimeTests {
    @Test func timedTransitionFiresWhenItsDelayHasPassedOnTheInjectedClock() async {
        let clock = ManualClock()
        let runtime = StateMachineRuntime(trafficLight, context: Trace(), clock: clock)
        var transitions = runtime.transitions().makeAsyncIterator()
        runtime.send(.next)
        #expect(await transitions.next()?.target == .yellow)

        await clock.advance(by: .milliseconds(2_999))
        #expect(runtime.state == .yellow)

        await clock.advance(by: .milliseconds(1))
        let fired = await transitions.next()
        #expect(fired == Transition(source: .yellow, target: .red, trigger: .timer(.seconds(3)), isInternal: false))
        #expect(runtime.state == .red)
    }

    @Test func leavingAStateCancelsItsTimer() async {
        let clock = ManualClock()
        let runtime = StateMachineRuntime(trafficLight, context: Trace(night: true), clock: clock)
        runtime.send(.next)  // green → yellow, arms 3 s
        runtime.send(.next)  // yellow → green at night: the timer must never fire
        await runtime.idle()
        await clock.advance(by: .seconds(60))
        #expect(runtime.state == .green)
        #expect(!runtime.context.steps.contains("yellow timed out"))
    }

    @Test func reenteringAStateArmsAFreshTimerFromTheNewEntry() async {
        let clock = ManualClock()
        let runtime = StateMachineRuntime(trafficLight, context: Trace(night: true), clock: clock)
        var transitions = runtime.transitions().makeAsyncIterator()
        runtime.send(.next)  // t = 0: yellow, due at 3
        await clock.advance(by: .seconds(2))
        runtime.send(.next)  // t = 2: green
        runtime.send(.next)  // t = 2: yellow again, due at 5
        for _ in 0..<3 { _ = await transitions.next() }
        await clock.advance(by: .seconds(2))  // t = 4: the first entry's deadline has passed
        #expect(runtime.state == .yellow)
        await clock.advance(by: .seconds(1))  // t = 5
        #expect(await transitions.next()?.trigger == .timer(.seconds(3)))
        #expect(runtime.state == .red)
    }

    @Test func idleWaitsUntilNoTimerIsArmed() async {
        let runtime = StateMachineRuntime(trafficLight, context: Trace(), clock: ImmediateClock())
        runtime.send(.next)
        await runtime.idle()
        // yellow times out to red, whose own timer leads back to green, which has none.
        #expect(runtime.state == .green)
        #expect(runtime.context.steps.suffix(4) == ["exit yellow", "yellow timed out", "enter red", "enter green"])
    }

    @Test func observersSeeEveryTransitionInOrderAndMaySendEvents() {
        let runtime = StateMachineRuntime(trafficLight, context: Trace(), clock: ManualClock())
        let seen = Recorder<String>()
        runtime.observe { transition in
            seen.append("\(transition)")
            // Re-entrant: sending from an observer must neither deadlock nor reorder.
            if transition.target == .yellow { runtime.send(.next) }
        }
        runtime.send(.next)
        #expect(seen.values == ["green → yellow on next", "yellow → red on next"])
        #expect(runtime.state == .red)
    }

    @Test func cancelledObservationIsCalledNoMore() {
        let runtime = StateMachineRuntime(trafficLight, context: Trace(), clock: ManualClock())
        let seen = Recorder<Light>()
        let token = runtime.observe { seen.append($0.target) }
        runtime.send(.tick)
        token.cancel()
        runtime.send(.next)
        #expect(seen.values == [.green])
    }

    @Test func stopFinishesTheStreams() async {
        let runtime = StateMachineRuntime(trafficLight, context: Trace(), clock: ManualClock())
        let stream = runtime.transitions()
        runtime.send(.next)
        runtime.stop()
        var targets: [Light] = []
        for await transition in stream { targets.append(transition.target) }
        #expect(targets == [.yellow])
    }

    @Test func batchSendAnswersEachEventInOrder() {
        let runtime = StateMachineRuntime(trafficLight, context: Trace(), clock: ManualClock())
        let outcomes = runtime.send(contentsOf: [.tick, .next, .tick])
        #expect(outcomes.map(\.isTransition) == [true, true, false])
        #expect(runtime.context.ticks == 1)
    }

    @Test func snapshotRoundTripsThroughJSON() throws {
        let runtime = StateMachineRuntime(trafficLight, context: Trace(), clock: ManualClock())
        runtime.send(.tick)
        runtime.send(.next)
        let taken = runtime.snapshot
        let data = try JSONEncoder().encode(taken)
        let decoded = try JSONDecoder().decode(MachineSnapshot<Light, Trace>.self, from: data)

        #expect(decoded == taken, "takenAt is kept to the millisecond, as it is encoded")
        let restored = StateMachineRuntime(trafficLight, context: Trace(), clock: ManualClock())
        try restored.restore(decoded, elapsed: .zero)  // as if restored the instant it was taken
        #expect(restored.state == .yellow)
        #expect(restored.context == runtime.context)
        var again = restored.snapshot
        var original = taken
        again.takenAt = nil
        original.takenAt = nil
        #expect(again == original)
    }

    @Test func restoringAnUnknownStateFailsAndChangesNothing() {
        let partial = StateMachineDefinition<Light, Signal, Trace>(initial: .green) {
            In(.green) { On(.next, to: .yellow) }
            In(.yellow) { On(.next, to: .green) }
        }
        let runtime = StateMachineRuntime(partial, context: Trace(), clock: ManualClock())
        #expect(throws: StateMachineError.unknownStates(["red"])) {
            try runtime.restore(MachineSnapshot(state: .red, context: Trace(ticks: 9)))
        }
        #expect(runtime.state == .green)
        #expect(runtime.context.ticks == 0)
    }

    @Test func effectRunsOnEntryFeedsEventsBackAndIsCancelledOnExit() async {
        let started = Recorder<String>()
        let definition = StateMachineDefinition<Light, Signal, Trace>(initial: .green) {
            In(.green) {
                On(.next, to: .yellow)
            }
            In(.yellow) {
                Effect("report and wait") { _, send in
                    started.append("started")
                    send.send(.tick)
                    do {
                        try await Task.sleep(for: .seconds(3_600))
                    } catch {
                        started.append("cancelled")
                    }
                }
                On(.tick) { $0.ticks += 1 }
                On(.next, to: .red)
            }
            In(.red) { On(.next, to: .green) }
        }
        let runtime = StateMachineRuntime(definition, context: Trace(), clock: ManualClock())
        var transitions = runtime.transitions().makeAsyncIterator()
        runtime.send(.next)
        #expect(await transitions.next()?.target == .yellow)
        #expect(await transitions.next()?.trigger == .event(.tick))  // sent by the effect
        runtime.send(.next)  // leaves yellow: the effect is cancelled
        await runtime.idle()
        for _ in 0..<100_000 where started.values.count < 2 { await Task.yield() }
        #expect(started.values == ["started", "cancelled"])
        #expect(runtime.context.ticks == 1)
    }
}
