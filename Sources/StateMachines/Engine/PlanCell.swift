/// What a statechart's plans say `send` does for one configuration and one event slot (a cell of
/// `ChartPlans.cells`).
@usableFromInline
enum PlanCell: Sendable {
    /// Takes the planned step `ChartPlans.steps[index]`.
    case step(Int32)
    /// Refuses the event: no rule takes it in this configuration (`noTransition`).
    case refused
    /// Leaves the step to the general algorithm (a guard, a `Refuse`, a history or final state on
    /// the way, a configuration past the limit).
    case undecided
}
