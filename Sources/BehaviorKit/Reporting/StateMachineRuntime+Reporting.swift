public import Logging
import Metrics

extension StateMachineRuntime {
    /// Logs and counts every transition and refusal of this runtime under `machine`'s name,
    /// until you cancel the token. `StateMachines` alone depends on nothing; this comes with
    /// `import BehaviorKit`, which brings swift-log and swift-metrics.
    ///
    /// ```swift
    /// let orders = StateMachineRuntime(orderLifecycle, context: Order())
    /// orders.report(as: "order", to: logger)
    /// orders.send(.pay(cents: 990))   // debug "transition", behaviorkit_transitions +1
    /// ```
    ///
    /// - Transitions: `debug` log lines with `machine`, `source`, `target` and `trigger`
    ///   metadata; the counter `behaviorkit_transitions` with the same dimensions.
    /// - Refusals: `debug` lines, or `warning` for an endless loop cut short and a re-entrant
    ///   send; the counter `behaviorkit_refusals` with `machine`, `state`, `event` and `reason`.
    ///
    /// An event is named by its case (`pay` for `.pay(cents: 990)`), so that a payload does
    /// not make a new time series per value. Metrics go to the backend bootstrapped when this
    /// is called.
    ///
    /// - Parameters:
    ///   - machine: the name in every log line and metric (`order`, `door`).
    ///   - logger: where to log; `nil` counts only.
    @discardableResult
    public func report(as machine: String, to logger: Logger? = nil) -> RuntimeReport {
        let reporter = RuntimeReporter(machine: machine, logger: logger)
        let transitions = observe { transition in reporter.record(transition) }
        let refusals = observeRefusals { refusal in reporter.record(refusal) }
        return RuntimeReport {
            transitions.cancel()
            refusals.cancel()
        }
    }
}

/// Stops a runtime's reporting (`StateMachineRuntime.report(as:to:)`) when you call
/// ``cancel()``.
public struct RuntimeReport: Sendable {
    let onCancel: @Sendable () -> Void

    /// Stops logging and counting.
    public func cancel() { onCancel() }
}
