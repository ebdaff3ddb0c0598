import BehaviorKitTesting
import Foundation
import StateMachines
import Testing

/// The runtime on statecharts: timers of compound states, computed and guarded timers,
/// snapshots with history and remaining times, refusals, re-entrancy, the end of the stream.
struct StatechartRuntimeTests {
    enum Lamp: String, Hashable, Sendable, Codable { case on, bright, dim, off, broken, resume }
    enum Press: String, Hashable, Sendable, Codable { case toggle, swap, fail, fix, tick }
    struct Power: Hashable, Sendable, Codable {
        var seconds = 8
        var allowDim = true
        var steps: [String] = []
    }

    static let lamp = StateMachineDefinition<Lamp, Press, Power>(initial: .on) {
        In(.on, initial: .bright) {
            History(.resume, .deep, default: .bright)
            After("auto-off", { .seconds($0.seconds) }, to: .off)  // runs on, whatever the child does
            On(.fail, to: .broken)
            In(.bright) {
                On(.swap, to: .dim)
                After(.seconds(3), to: .dim, when: Guard("dim allowed") { $0.allowDim })
            }
            In(.dim) { On(.swap, to: .bright) }
        }
        In(.broken) { On(.fix, to: .resume) }
        In(.off, final: true)
    }

    @Test func timerOfACompoundStateRunsOnWhileItsChildrenChange() async {
        let clock = ManualClock()
        let runtime = StateMachineRuntime(Self.lamp, context: Power(), clock: clock)
        runtime.send(.swap)  // bright → dim: on's 8 s timer keeps running
        await clock.advance(by: .seconds(5))
        runtime.send(.swap)  // dim → bright: bright's 3 s timer starts now, at 5
        await clock.advance(by: .seconds(2))
        #expect(runtime.configuration == [.on, .bright])
        await clock.advance(by: .seconds(1))  // t = 8: on's timer, due first, leaves on
        await waitUntil { runtime.isFinished }
        #expect(runtime.state == .off)
    }

    @Test func guardedTimerIsSpentWhenItsGuardFails() async {
        let clock = ManualClock()
        let runtime = StateMachineRuntime(Self.lamp, context: Power(seconds: 60, allowDim: false), clock: clock)
        await clock.advance(by: .seconds(3))
        await waitUntil { runtime.snapshot.timers?.count == 1 }
        #expect(runtime.configuration == [.on, .bright])
    }

    @Test func streamFinishesWhenTheMachineReachesAFinalState() async {
        let clock = ManualClock()
        let runtime = StateMachineRuntime(Self.lamp, context: Power(seconds: 1), clock: clock)
        let stream = runtime.transitions()
        await clock.advance(by: .seconds(1))
        var targets: [Lamp] = []
        for await transition in stream { targets.append(transition.target) }
        #expect(targets == [.off])
        #expect(runtime.send(.swap).refusal?.reason == .finalState)
    }

    @Test func snapshotKeepsConfigurationHistoryAndRemainingTimesThroughJSON() async throws {
        let clock = ManualClock()
        let runtime = StateMachineRuntime(Self.lamp, context: Power(seconds: 8), clock: clock)
        runtime.send(.swap)  // dim
        await clock.advance(by: .seconds(1))
        runtime.send(.fail)  // broken: history holds on / dim
        await clock.advance(by: .seconds(1))
        let data = try JSONEncoder().encode(runtime.snapshot)
        let decoded = try JSONDecoder().decode(MachineSnapshot<Lamp, Power>.self, from: data)
        #expect(decoded.version == 2)
        #expect(decoded.configuration == [.broken])
        #expect(decoded.history == [HistoryRecord(history: .resume, states: [.dim])])

        let restored = StateMachineRuntime(Self.lamp, context: Power(), clock: ManualClock())
        try restored.restore(decoded)
        restored.send(.fix)
        #expect(restored.configuration == [.on, .dim])
    }

    @Test func restoreArmsEachTimerForItsRemainingTimeLessTheElapsedTime() async throws {
        let clock = ManualClock()
        let runtime = StateMachineRuntime(Self.lamp, context: Power(seconds: 8), clock: clock)
        runtime.send(.swap)
        await clock.advance(by: .seconds(3))
        let snapshot = runtime.snapshot
        #expect(snapshot.timers == [PendingTimer(state: .on, index: 0, remaining: .seconds(5))])
        runtime.stop()

        let later = ManualClock()
        let restored = StateMachineRuntime(Self.lamp, context: Power(), clock: later)
        try restored.restore(snapshot, elapsed: .seconds(4))  // 4 s passed while it was down
        await later.advance(by: .milliseconds(999))
        #expect(restored.configuration == [.on, .dim])
        await later.advance(by: .milliseconds(1))
        await waitUntil { restored.isFinished }
        #expect(restored.state == .off)
    }

    @Test func restoringASnapshotWithUnknownStatesNamesThemAll() {
        let runtime = StateMachineRuntime(Self.lamp, context: Power(), clock: ManualClock())
        let snapshot = MachineSnapshot<Lamp, Power>(
            state: .dim, configuration: [.on, .dim],
            history: [HistoryRecord(history: .resume, states: [.dim])],
            timers: [PendingTimer(state: .on, index: 0, remaining: .seconds(1))], context: Power())
        let smaller = StateMachineDefinition<Lamp, Press, Power>(initial: .on) {
            In(.on) { On(.fail, to: .broken) }
            In(.broken)
        }
        let other = StateMachineRuntime(smaller, context: Power(), clock: ManualClock())
        #expect(throws: StateMachineError.unknownStates(["dim", "resume"])) { try other.restore(snapshot) }
        #expect(other.configuration == [.on])
        #expect(throws: StateMachineError.invalidConfiguration("compound state 'on' has 2 active children")) {
            try runtime.restore(
                MachineSnapshot(
                    state: .dim, configuration: [.on, .dim, .bright], history: [], timers: nil, context: Power()))
        }
    }

    @Test func versionOneSnapshotStillDecodes() throws {
        let json = #"{"state":"dim","context":{"seconds":8,"allowDim":true,"steps":[]}}"#
        let snapshot = try JSONDecoder().decode(MachineSnapshot<Lamp, Power>.self, from: Data(json.utf8))
        #expect(snapshot.version == 1)
        var machine = StateMachine(Self.lamp, context: Power())
        try machine.restore(snapshot)
        #expect(machine.configuration == [.on, .dim])
    }

    @Test func observersSeeRefusals() {
        let runtime = StateMachineRuntime(Self.lamp, context: Power(), clock: ManualClock())
        let refusals = Recorder<String>()
        runtime.observeRefusals { refusals.append("\($0)") }
        runtime.send(.fix)
        runtime.stop()
        runtime.send(.swap)
        #expect(
            refusals.values == [
                "no transition for event 'fix' in state 'bright'", "the runtime is stopped: event 'swap' ignored",
            ])
    }

    @Test func actionSendingToItsOwnRuntimeIsRefusedNotDeadlocked() {
        let box = LampBox()
        let definition = StateMachineDefinition<Lamp, Press, Power>(initial: .bright) {
            In(.bright) {
                On(.swap, to: .dim) { power in
                    let outcome = box.runtime?.send(.swap)
                    power.steps.append(outcome?.refusal?.reason == .reentrant ? "refused" : "sent")
                    power.steps.append("saw \(box.runtime?.state.rawValue ?? "-")")
                }
            }
            In(.dim)
        }
        let runtime = StateMachineRuntime(definition, context: Power(), clock: ManualClock())
        box.runtime = runtime
        let refusals = Recorder<Refusal<Lamp, Press>>()
        runtime.observeRefusals { refusals.append($0) }
        runtime.send(.swap)
        #expect(runtime.context.steps == ["refused", "saw bright"])
        #expect(runtime.state == .dim)
        #expect(refusals.values.map(\.reason) == [.reentrant])
    }
}

/// Lets an action reach the runtime it belongs to.
final class LampBox: @unchecked Sendable {
    var runtime:
        StateMachineRuntime<
            StatechartRuntimeTests.Lamp, StatechartRuntimeTests.Press, StatechartRuntimeTests.Power, ManualClock
        >?
}

/// Yields until `condition` holds (bounded: a test never hangs on it).
func waitUntil(_ condition: () -> Bool) async {
    var spins = 0
    while spins < 100_000, !condition() {
        await Task.yield()
        spins += 1
    }
}

/// A machine that reaches a top-level final state starts no effect and arms no timer there.
struct FinalStateRuntimeTests {
    enum Q: Hashable, Sendable { case running, done }
    enum V: Hashable, Sendable { case finish }

    @Test func effectsAreNotStartedInAFinalState() async {
        let started = Recorder<String>()
        let definition = StateMachineDefinition<Q, V, Int>(initial: .running) {
            In(.running) { On(.finish, to: .done) }
            In(.done, final: true) {
                Effect("never") { _, _ in started.append("started") }
                After(.seconds(1), to: .running)
            }
        }
        let clock = ManualClock()
        let runtime = StateMachineRuntime(definition, context: 0, clock: clock)
        runtime.send(.finish)
        await clock.advance(by: .seconds(2))
        await runtime.idle()
        #expect(started.values.isEmpty)
        #expect(runtime.snapshot.timers == [])
        #expect(runtime.state == .done)
    }
}

extension StatechartRuntimeTests {
    @Test func aRuntimeSnapshotKnowsWhenItWasTakenSoARestoreCountsTheWait() async throws {
        let clock = ManualClock()
        let runtime = StateMachineRuntime(Self.lamp, context: Power(seconds: 8), clock: clock)
        runtime.send(.swap)
        await clock.advance(by: .seconds(3))
        var snapshot = runtime.snapshot
        runtime.stop()
        let now = Duration.milliseconds(Int64(Date().timeIntervalSince1970 * 1000))
        let taken = try #require(snapshot.takenAt)
        #expect(taken <= now + .milliseconds(5) && taken > now - .seconds(60))
        // As if saved 4 s ago: the 5 s left become 1 s, with no elapsed kept by the caller.
        snapshot.takenAt = now - .seconds(4)
        let encoded = try JSONEncoder().encode(snapshot)
        let decoded = try JSONDecoder().decode(MachineSnapshot<Lamp, Power>.self, from: encoded)
        #expect(decoded.takenAt == snapshot.takenAt)

        let later = ManualClock()
        let restored = StateMachineRuntime(Self.lamp, context: Power(), clock: later)
        try restored.restore(decoded)
        await later.advance(by: .milliseconds(800))
        #expect(restored.configuration == [.on, .dim])
        await later.advance(by: .milliseconds(200))
        await waitUntil { restored.isFinished }
        #expect(restored.state == .off)
    }
}
