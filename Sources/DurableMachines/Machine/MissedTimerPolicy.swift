/// What a durable timer does when it comes due while no worker runs, and is found late.
///
/// ```swift
/// DurableMachine("order", definition: lifecycle, store: store, missedTimers: .skip(lateBy: .seconds(60)))
/// ```
public enum MissedTimerPolicy: Hashable, Sendable {
    /// Fire it, however late (the default): a deadline that passed while every worker was down
    /// fires when the first worker starts.
    case fire
    /// Drop it without firing when it is found more than `lateBy` after its due time; the
    /// history records a ``MachineTrigger/missedTimer(_:)`` step.
    case skip(lateBy: Duration)
}
