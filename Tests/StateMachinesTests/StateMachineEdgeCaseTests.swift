import BehaviorKitTesting
import Dispatch
import StateMachines
import Testing

/// Edge cases of runtimes (effects of an earlier entry, stopping, guards that read their runtime,
/// restored timers), diagrams (names that differ only in punctuation, microsecond timers) and
/// validation (timers that never fire, states reachable only through a final one), each test
/// written before its fix and seen failing on the code of the time.
struct StateMachineEdgeCaseTests {
    enum Fetch: String, Hashable, Sendable, Codable { case idle, loading, loaded }
    enum FetchEvent: String, Hashable, Sendable, Codable { case fetch, cancel, loaded }

    /// A gate an effect waits on, opened by the test.
    final class Gate: Sendable {
        private let waiters = Recorder<Int>()
        private let opened = Recorder<Int>()
        func wait(_ id: Int) async {
            waiters.append(id)
            while !opened.values.contains(id) { await Task.yield() }
        }
        func open(_ id: Int) { opened.append(id) }
        var waiting: [Int] { waiters.values }
    }

    @Test func eventFromAnEffectOfAnEarlierEntryIsNotAppliedToALaterEntry() async {
        let gate = Gate()
        let entries = Recorder<Int>()
        let definition = StateMachineDefinition<Fetch, FetchEvent, Int>(initial: .idle) {
            In(.idle) { On(.fetch, to: .loading) }
            In(.loading) {
                Entry("count") { $0 += 1 }
                // A fetch that does not stop when cancelled: it answers late.
                Effect("fetch") { entry, send in
                    entries.append(entry)
                    await gate.wait(entry)
                    send.send(.loaded)
                }
                On(.cancel, to: .idle)
                On(.loaded, to: .loaded)
            }
            In(.loaded) { On(.fetch, to: .loading) }
        }
        let runtime = StateMachineRuntime(definition, context: 0, clock: ManualClock())
        runtime.send(.fetch)  // first entry into loading
        runtime.send(.cancel)
        runtime.send(.fetch)  // second entry into loading
        while gate.waiting.count < 2 { await Task.yield() }
        gate.open(1)  // the first, stale fetch answers
        for _ in 0..<2_000 { await Task.yield() }
        #expect(runtime.state == .loading)
        gate.open(2)  // the current fetch answers
        await waitUntil { runtime.state == .loaded }
        #expect(runtime.state == .loaded)
    }

    enum Call: String, Hashable, Sendable, CustomStringConvertible {
        case idle, onHold, onUnderscoreHold
        var description: String {
            switch self {
            case .idle: "idle"
            case .onHold: "on hold"
            case .onUnderscoreHold: "on_hold"
            }
        }
    }

    @Test func statesWhoseNamesDifferOnlyInPunctuationAreDistinctNodes() {
        let definition = StateMachineDefinition<Call, Signal, Int>(initial: .idle) {
            In(.idle) {
                On(.next, to: .onHold)
                On(.tick, to: .onUnderscoreHold)
            }
            In(.onHold) { On(.next, to: .idle) }
            In(.onUnderscoreHold) { On(.next, to: .idle) }
        }
        let mermaidIDs = Set(
            definition.mermaid().split(separator: "\n").compactMap { line -> Substring? in
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                return parts.count >= 3 && parts[1] == "-->" && parts[0] == "idle" ? parts[2] : nil
            })
        #expect(mermaidIDs.count == 2)
        let dotIDs = Set(
            definition.dot().split(separator: "\n").compactMap { line -> Substring? in
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                return parts.count >= 3 && parts[1] == "->" && parts[0] == "idle" ? parts[2] : nil
            })
        #expect(dotIDs.count == 2)
    }

    @Test func secondTimerWithTheSameDelayIsReportedAsNeverFiring() {
        let definition = StateMachineDefinition<Light, Signal, Int>(initial: .green) {
            In(.green) {
                After(.seconds(1), to: .yellow)
                After(.seconds(1), to: .red)
            }
            In(.yellow) { On(.next, to: .green) }
            In(.red) { On(.next, to: .green) }
        }
        let diagnostics = definition.validate()
        #expect(diagnostics.map(\.kind) == [.timerNeverFires])
        #expect(diagnostics.first?.states == ["green", "red"])
    }

    @Test func stateReachableOnlyThroughAFinalStateIsUnreachable() {
        let definition = StateMachineDefinition<Light, Signal, Int>(initial: .green) {
            In(.green) { On(.shutdown, to: .off) }
            In(.off, final: true) { On(.repair, to: .red) }
            In(.red) { On(.next, to: .green) }
        }
        let unreachable = definition.validate().filter { $0.kind == .unreachableState }
        #expect(unreachable.map(\.states) == [["red"]])
    }

    @Test func refuseInAFinalStateIsReported() {
        let definition = StateMachineDefinition<Light, Signal, Int>(initial: .green) {
            In(.green) { On(.shutdown, to: .off) }
            In(.off, final: true) { Refuse(.repair, "too late") }
        }
        let diagnostics = definition.validate()
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.states == ["off"])
        #expect(diagnostics.first?.events == ["repair"])
        #expect(diagnostics.first?.message.contains("final") == true)
    }

    @Test func stoppedRuntimeNoLongerChangesState() {
        let runtime = StateMachineRuntime(trafficLight, context: Trace(), clock: ManualClock())
        runtime.stop()
        let outcome = runtime.send(.next)
        #expect(runtime.state == .green)
        #expect(outcome.refusal != nil)
        #expect(runtime.context.steps == ["enter green"])
    }

    @Test func microsecondTimerIsDrawnInMicroseconds() {
        let definition = StateMachineDefinition<Light, Signal, Int>(initial: .green) {
            In(.green) { After(.microseconds(10), to: .red) }
            In(.red) { After(.nanoseconds(1_500), to: .green) }
        }
        #expect(definition.mermaid().contains("green --> red : after 10 µs"))
        #expect(definition.mermaid().contains("red --> green : after 1.5 µs"))
        #expect(definition.dot().contains("after 10 µs"))
    }

    /// A guard that reads its own runtime's state answers instead of hanging the process.
    @Test func guardReadingItsOwnRuntimeDoesNotDeadlock() {
        let box = RuntimeBox()
        let definition = StateMachineDefinition<Light, Signal, Int>(initial: .green) {
            In(.green) {
                On(.next, to: .yellow, when: Guard("still green") { _ in box.runtime?.state == .green })
            }
            In(.yellow) { On(.next, to: .green) }
        }
        let runtime = StateMachineRuntime(definition, context: 0, clock: ManualClock())
        box.runtime = runtime
        let done = DispatchSemaphore(value: 0)
        Thread.detach {
            runtime.send(.next)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + .seconds(5)) == .success)
    }

    @Test func restoredTimerFiresAfterItsRemainingTimeNotItsFullDelay() async {
        let clock = ManualClock()
        let runtime = StateMachineRuntime(trafficLight, context: Trace(), clock: clock)
        runtime.send(.next)  // yellow: 3 s
        await clock.advance(by: .seconds(2))
        let snapshot = runtime.snapshot
        runtime.stop()

        let later = ManualClock()
        let restored = StateMachineRuntime(trafficLight, context: Trace(), clock: later)
        #expect((try? restored.restore(snapshot)) != nil)
        await later.advance(by: .seconds(1))
        await waitUntil { restored.state == .red }
        #expect(restored.state == .red)
        #expect(later.now.offset == .seconds(1))
    }
}

/// Lets a guard reach the runtime it belongs to.
final class RuntimeBox: @unchecked Sendable {
    var runtime: StateMachineRuntime<Light, Signal, Int, ManualClock>?
}

/// A plain thread, so that a deadlock stays on it and the test can time out.
enum Thread {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async(execute: body)
    }
}
