import BehaviorKitTesting
import StateMachines
import Testing

/// A statechart runtime driven from many tasks at once while its timers fire, its actions raise
/// events and its effects send events back: run under ThreadSanitizer in CI.
struct StatechartStressTests {
    enum Q: Hashable, Sendable { case on, p, a, a1, a2, b, b1, b2, history, off }
    enum V: Hashable, Sendable { case flip, flop, echo, fromEffect, pause, resume, tick }
    struct Tally: Sendable { var flips = 0, echoes = 0, effects = 0, ticks = 0, timers = 0 }

    static let definition = StateMachineDefinition<Q, V, Tally>(initial: .on) {
        In(.on) {
            History(.history, .deep)
            On(.pause, to: .off)
            On(.tick) { $0.ticks += 1 }
            Parallel(.p) {
                In(.a, initial: .a1) {
                    In(.a1) {
                        On(.flip, to: .a2, actions: [Action("flip") { $0.flips += 1 }, .raise(.echo)])
                        After(.milliseconds(1), to: .a2) { $0.timers += 1 }
                    }
                    In(.a2) {
                        On(.flip, to: .a1) { $0.flips += 1 }
                        On(.echo) { $0.echoes += 1 }
                    }
                }
                In(.b, initial: .b1) {
                    In(.b1) {
                        Effect("ping") { _, send in send.send(.fromEffect) }
                        On(.fromEffect, to: .b2) { $0.effects += 1 }
                    }
                    In(.b2) { On(.flop, to: .b1) }
                }
            }
        }
        In(.off) { On(.resume, to: .history) }
    }

    @Test func sendersTimersRaisedEventsAndEffectsTogetherKeepTheRuntimeConsistent() async {
        let clock = ManualClock()
        let runtime = StateMachineRuntime(Self.definition, context: Tally(), clock: clock)
        let observed = Recorder<Int>()
        runtime.observe { _ in observed.append(1) }
        let refusals = Recorder<Int>()
        runtime.observeRefusals { _ in refusals.append(1) }
        let ticksPerTask = 500
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for step in 0..<200 {
                    await clock.advance(by: .milliseconds(1))
                    if step % 50 == 0 {
                        runtime.send(.pause)
                        runtime.send(.resume)
                    }
                }
            }
            group.addTask {
                for _ in 0..<500 {
                    let snapshot = runtime.snapshot
                    #expect(!snapshot.configuration.isEmpty)
                    #expect(runtime.can(.tick) || snapshot.configuration == [.off])
                }
            }
            for task in 0..<6 {
                group.addTask {
                    for index in 0..<ticksPerTask {
                        switch (task + index) % 5 {
                        case 0: runtime.send(.flip)
                        case 1: runtime.send(.flop)
                        default: runtime.send(contentsOf: [.tick])
                        }
                    }
                }
            }
        }
        runtime.send(.resume)
        let configuration = runtime.configuration
        #expect(configuration.first == .on)
        #expect(configuration.contains(.a1) != configuration.contains(.a2))
        #expect(configuration.contains(.b1) != configuration.contains(.b2))
        let tally = runtime.context
        // Every tick was taken, or refused while the chart was off.
        #expect(tally.ticks + refusals.values.count >= 6 * ticksPerTask * 3 / 5)
        #expect(tally.echoes <= tally.flips)
        #expect(observed.values.count >= tally.flips)
        runtime.stop()
    }
}
