/// What a durable timer or a schedule's tick does when it comes due while no worker runs, and
/// is found late: the one vocabulary of durable machines (`DurableMachine`'s `missedTimers`)
/// and of schedules (``QueueSchedule/missedRuns``).
///
/// ```swift
/// DurableMachine("order", definition: lifecycle, store: store, missedTimers: .skip(lateBy: .seconds(60)))
/// QueueSchedule("nightly-report", cron: "0 3 * * *", timeZone: berlin, queue: "reports",
///               command: BuildReport(), missedRuns: .catchUp(atMost: 3))
/// ```
public enum MissedTimerPolicy: Hashable, Sendable {
    /// Fire it, however late (the default). A machine's deadline that passed while every worker
    /// was down fires when the first worker starts; of a schedule's ticks missed while no
    /// scheduler ran, the latest fires once.
    case fire
    /// Drop it without firing when it is found more than `lateBy` after its due time. A machine's
    /// history records a `MachineTrigger.missedTimer` step; a schedule's tick is not enqueued.
    case skip(lateBy: Duration)
    /// Fire the latest `atMost` of the ticks missed (at least one), oldest first, each once: a
    /// schedule catching up on a night without workers. A machine's timer is due once, so it
    /// fires as ``fire``.
    case catchUp(atMost: Int)
}

extension MissedTimerPolicy: Codable {}
