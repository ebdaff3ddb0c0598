import BehaviorKitTesting
import DurableMachines
import InMemoryTracing
import Metrics
import MetricsTestKit
import StateMachines
import Testing
import Tracing

struct DurableMachineObservabilityTests {
    enum Door: String, Codable, Sendable { case open, closed }
    enum Push: String, Codable, Sendable { case open, close }

    static let door = StateMachineDefinition<Door, Push, Int>(initial: .closed) {
        In(.closed) { On(.open, to: .open) }
        In(.open) {
            On(.close, to: .closed)
            After(.seconds(10), to: .closed)
        }
    }

    @Test func stepsConflictsTimerLagKeysPerStateAndSpansAreReported() async throws {
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        let clock = ManualClock()
        let doors = withMetricsFactory(metrics) {
            withTracer(tracer) {
                DurableMachine("door", definition: Self.door, store: InMemoryMachineStore(), clock: clock)
            }
        }
        try await doors.start("front", context: 0)
        try await doors.send(.open, to: "front")
        try await doors.send(.open, to: "front")  // refused
        await clock.advance(by: .seconds(12))
        try await doors.fireDueTimers()

        let transitioned = try metrics.expectCounter(
            "behaviorkit_machine_steps_total", [("machine", "door"), ("trigger", "event"), ("outcome", "transitioned")])
        let refused = try metrics.expectCounter(
            "behaviorkit_machine_steps_total", [("machine", "door"), ("trigger", "event"), ("outcome", "refused")])
        let timers = try metrics.expectCounter(
            "behaviorkit_machine_steps_total", [("machine", "door"), ("trigger", "timer"), ("outcome", "transitioned")])
        #expect(transitioned.totalValue == 1 && refused.totalValue == 1 && timers.totalValue == 1)
        let lag = try metrics.expectTimer("behaviorkit_machine_timer_lag_seconds", [("machine", "door")])
        #expect(lag.values == [2_000_000_000], "the timer fired 2 s after it was due")
        let latency = try metrics.expectTimer("behaviorkit_machine_event_duration_seconds", [("machine", "door")])
        #expect(latency.values.count == 2)

        let counts = try await doors.recordKeysPerState()
        #expect(counts == ["closed": 1])
        let closed = try metrics.expectGauge("behaviorkit_machine_keys", [("machine", "door"), ("state", "closed")])
        let open = try metrics.expectGauge("behaviorkit_machine_keys", [("machine", "door"), ("state", "open")])
        #expect(closed.lastValue == 1 && open.lastValue == 0)

        let spans = tracer.finishedSpans.filter { $0.operationName == "behaviorkit.machine.send" }
        #expect(spans.count == 2)
        #expect(spans.last?.attributes["behaviorkit.outcome"]?.toSpanAttribute() == .string("refused"))
    }
}
