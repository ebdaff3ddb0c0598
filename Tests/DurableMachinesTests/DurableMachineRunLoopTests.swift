import BehaviorKitSync
import BehaviorKitTesting
import DurableMachines
import StateMachines
import Testing

/// The timer and effect loop: an effect runs beside it, so that a slow one (an HTTP call that
/// takes a minute) holds up no other key's timer and no other effect.
struct DurableMachineRunLoopTests {
    enum Phase: String, Codable, Sendable { case fetching, fetched, waiting, expired }
    enum Signal: String, Codable, Sendable { case fetched, wait }

    /// Opens once; every effect that waits on it waits until then.
    final class Gate: Sendable {
        let (opened, opener) = AsyncStream.makeStream(of: Void.self)
        let started = LockedValue(0)
        func wait() async {
            started.withLock { $0 += 1 }
            for await _ in opened {}
        }
        func open() { opener.finish() }
        /// Returns once `count` effects have started waiting.
        func started(_ count: Int) async {
            while started.withLock({ $0 }) < count { try? await Task.sleep(for: .milliseconds(1)) }
        }
    }

    static func definition(_ gate: Gate) -> StateMachineDefinition<Phase, Signal, Int> {
        StateMachineDefinition(initial: .fetching) {
            In(.fetching) {
                On(.fetched, to: .fetched)
                On(.wait, to: .waiting)
                Effect("slow call") { _, send in
                    await gate.wait()
                    send.send(.fetched)
                }
            }
            In(.fetched)
            In(.waiting) { After(.seconds(5), to: .expired) }
            In(.expired)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aSlowEffectHoldsUpNoOtherKeysTimerAndNoOtherEffect() async throws {
        let clock = ManualClock()
        let gate = Gate()
        let machine = DurableMachine(
            "calls", definition: Self.definition(gate), store: InMemoryMachineStore(), clock: clock)
        try await machine.start("slow", context: 0)
        let loop = Task { try await machine.runTimersAndEffects(owner: "w", clock: clock) }
        // The loop started the slow effect and went on to wait for more work. (Before effects ran
        // beside the loop, it waited for this one: the steps below then never happen, and the
        // test fails at its time limit.)
        await gate.started(1)
        // The loop and the heartbeat that keeps the effect's lease wait on the clock.
        await clock.waitForSleepers(count: 2)

        // Another key's effect starts while the first still runs…
        try await machine.start("second", context: 0)
        await clock.advance(by: .milliseconds(100))
        await gate.started(2)

        // …and another key's timer fires.
        try await machine.start("timed", context: 0)
        try await machine.send(.wait, to: "timed")
        await clock.waitForSleepers(count: 2)
        await clock.advance(by: .seconds(6))
        while try await machine.instance("timed")?.state != .expired { try await Task.sleep(for: .milliseconds(1)) }
        #expect(try await machine.instance("slow")?.state == .fetching, "the slow effect still runs")
        #expect(try await machine.instance("second")?.state == .fetching, "so does the second")

        gate.open()
        while true {
            let slow = try await machine.instance("slow")?.state
            let second = try await machine.instance("second")?.state
            if slow == .fetched && second == .fetched { break }
            try await Task.sleep(for: .milliseconds(1))
        }
        loop.cancel()
        _ = await loop.result
    }
}
