import Commands
import Logging

/// Turns a runtime's transitions and refusals into log lines and counters; keeps one counter
/// per set of dimensions (Commands' metric cache), made on the backend current at the start, so
/// that a transition already seen costs a dictionary lookup, and nothing without a backend.
final class RuntimeReporter: Sendable {
    let machine: String
    let logger: Logger?
    /// The backend current when reporting began (a test's `withMetricsFactory` too), or `nil`
    /// for swift-metrics' no-op one.
    private let metrics: MetricCache?

    init(machine: String, logger: Logger?) {
        self.machine = machine
        self.logger = logger
        self.metrics = MetricCache.make()
    }

    func record<State, Event>(_ transition: Transition<State, Event>) {
        let source = "\(transition.source)"
        let target = "\(transition.target)"
        let trigger = Self.name(of: transition.trigger)
        metrics?.increment(
            "behaviorkit_transitions",
            [("machine", machine), ("source", source), ("target", target), ("trigger", trigger)])
        logger?.debug(
            "transition",
            metadata: [
                "machine": "\(machine)", "source": "\(source)", "target": "\(target)", "trigger": "\(trigger)",
            ])
    }

    func record<State, Event>(_ refusal: Refusal<State, Event>) {
        let state = "\(refusal.state)"
        let event = Self.caseName("\(refusal.event)")
        let reason = Self.name(of: refusal.reason)
        metrics?.increment(
            "behaviorkit_refusals", [("machine", machine), ("state", state), ("event", event), ("reason", reason)])
        let level: Logger.Level =
            switch refusal.reason {
            case .endlessLoop, .reentrant: .warning
            default: .debug
            }
        logger?.log(
            level: level, "refused",
            metadata: [
                "machine": "\(machine)", "state": "\(state)", "event": "\(event)", "reason": "\(reason)",
                "detail": "\(refusal)",
            ])
    }

    /// `pay` for `pay(cents: 990)`, `Shop.Event.pay(…)` alike: the case, without its payload
    /// or the type's path.
    static func caseName(_ description: String) -> String {
        let head = description.split(separator: "(", maxSplits: 1).first.map(String.init) ?? description
        return head.split(separator: ".").last.map(String.init) ?? head
    }

    static func name<Event>(of trigger: Trigger<Event>) -> String {
        switch trigger {
        case .event(let event): caseName("\(event)")
        case .raised(let event): "raised " + caseName("\(event)")
        case .timer: "timer"
        case .eventless: "eventless"
        case .done: "done"
        }
    }

    static func name<State, Event>(of reason: Refusal<State, Event>.Reason) -> String {
        switch reason {
        case .noTransition: "no_transition"
        case .guardFailed: "guard_failed"
        case .rejected: "rejected"
        case .finalState: "final_state"
        case .endlessLoop: "endless_loop"
        case .stopped: "stopped"
        case .reentrant: "reentrant"
        }
    }
}
