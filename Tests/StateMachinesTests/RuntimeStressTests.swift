import BehaviorKitTesting
import StateMachines
import Testing

struct RuntimeStressTests {
    /// Eight tasks send at once to one runtime; every event is applied exactly once, every
    /// transition is observed once, and the end state agrees with the number of toggles.
    @Test func eightTasksSendingAtOnceLeaveAConsistentEndState() async {
        let definition = StateMachineDefinition<Light, Signal, Trace>(initial: .green) {
            In(.green) {
                On(.tick) { $0.ticks += 1 }
                On(.next, to: .red)
            }
            In(.red) {
                On(.tick) { $0.ticks += 1 }
                On(.next, to: .green)
            }
        }
        let runtime = StateMachineRuntime(definition, context: Trace(), clock: ManualClock())
        let observed = Recorder<Signal>()
        runtime.observe { transition in
            if case .event(let event) = transition.trigger { observed.append(event) }
        }
        let tasks = 8
        let ticksPerTask = 2_000
        let togglesPerTask = 101
        await withTaskGroup(of: Void.self) { group in
            // A reader beside the senders: every snapshot it takes is a state the machine has.
            group.addTask {
                for _ in 0..<2_000 {
                    #expect(runtime.definition.states == [.green, .red])
                    #expect([.green, .red].contains(runtime.snapshot.state))
                }
            }
            for task in 0..<tasks {
                group.addTask {
                    for index in 0..<(ticksPerTask + togglesPerTask) {
                        let event: Signal = index % 20 == 0 && index / 20 < togglesPerTask ? .next : .tick
                        if task % 2 == 0 {
                            runtime.send(event)
                        } else {
                            runtime.send(contentsOf: [event])
                        }
                    }
                }
            }
        }
        let totalToggles = tasks * togglesPerTask
        #expect(runtime.context.ticks == tasks * ticksPerTask)
        #expect(runtime.state == (totalToggles % 2 == 0 ? .green : .red))
        #expect(observed.values.count == tasks * (ticksPerTask + togglesPerTask))
        #expect(observed.values.filter { $0 == .next }.count == totalToggles)
    }
}
