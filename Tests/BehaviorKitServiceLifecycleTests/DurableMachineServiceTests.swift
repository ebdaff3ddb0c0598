import BehaviorKitServiceLifecycle
import BehaviorKitTesting
import DurableMachines
import ServiceLifecycle
import ServiceLifecycleTestKit
import StateMachines
import Testing

struct DurableMachineServiceTests {
    enum Door: String, Codable, Sendable { case open, closed }
    enum Push: String, Codable, Sendable { case open }

    @Test func theServiceFiresDueTimersUntilAGracefulShutdown() async throws {
        let clock = ManualClock()
        let definition = StateMachineDefinition<Door, Push, Int>(initial: .closed) {
            In(.closed) { On(.open, to: .open) }
            In(.open) { After(.seconds(10), to: .closed) { $0 += 1 } }
        }
        let doors = DurableMachine("door", definition: definition, store: InMemoryMachineStore(), clock: clock)
        try await doors.start("front", context: 0)
        try await doors.send(.open, to: "front")
        try await testGracefulShutdown { trigger in
            async let running: Void = DurableMachineService(doors, owner: "w1", pollInterval: .seconds(1), clock: clock)
                .run()
            await clock.waitForSleepers()
            await clock.advance(by: .seconds(10))
            var closed = false
            for _ in 0..<1_000 where !closed {
                closed = try await doors.instance("front")?.state == .closed
                await Task.yield()
            }
            #expect(closed, "the service fired the door's timer")
            trigger.triggerGracefulShutdown()
            try await running
        }
        #expect(try await doors.instance("front")?.context == 1)
    }
}
