import BehaviorKitTesting
import InMemoryLogging
import Logging
import Metrics
import MetricsTestKit
import Testing

@testable import BehaviorKit

/// `StateMachineRuntime.report(as:to:)`: what a runtime logs and counts.
struct RuntimeReportingTests {
    enum Door: Hashable, Sendable { case closed, open }
    enum Push: Hashable, Sendable {
        case open(by: String)
        case close
    }

    let metrics = TestMetrics()
    let logs = InMemoryLogHandler()

    var logger: Logger {
        var logger = Logger(label: "test") { _ in logs }
        logger.logLevel = .debug
        return logger
    }

    func door() -> StateMachineRuntime<Door, Push, Int, ManualClock> {
        let definition = StateMachineDefinition<Door, Push, Int>(initial: .closed) {
            In(.closed) { On(.open(by: "ada"), to: .open) }
            In(.open) { On(.close, to: .closed) }
        }
        return StateMachineRuntime(definition, context: 0, clock: ManualClock())
    }

    @Test func transitionsAndRefusalsAreCountedByCaseAndLogged() throws {
        let runtime = door()
        let report = withMetricsFactory(metrics) { runtime.report(as: "door", to: logger) }
        runtime.send(.open(by: "ada"))
        runtime.send(.open(by: "ada"))  // refused: no transition from open
        runtime.send(.close)
        let opened = try metrics.expectCounter(
            "behaviorkit_transitions",
            [("machine", "door"), ("source", "closed"), ("target", "open"), ("trigger", "open")])
        #expect(opened.totalValue == 1, "the payload is not a dimension: one series per case")
        let refused = try metrics.expectCounter(
            "behaviorkit_refusals",
            [("machine", "door"), ("state", "open"), ("event", "open"), ("reason", "no_transition")])
        #expect(refused.totalValue == 1)
        let lines = logs.entries.map { "\($0.message) \($0.metadata["source"] ?? "-")→\($0.metadata["target"] ?? "-")" }
        #expect(lines == ["transition closed→open", "refused -→-", "transition open→closed"])
        #expect(logs.entries.allSatisfy { $0.metadata["machine"] == "door" })

        report.cancel()
        runtime.send(.open(by: "ada"))
        #expect(opened.totalValue == 1, "a cancelled report counts no more")
        #expect(logs.entries.count == 3)
    }

    @Test func aCaseNameDropsThePayloadAndTheTypesPath() {
        #expect(RuntimeReporter.caseName("pay(cents: 990)") == "pay")
        #expect(RuntimeReporter.caseName("Shop.Event.pay(cents: 990)") == "pay")
        #expect(RuntimeReporter.caseName("close") == "close")
    }
}
