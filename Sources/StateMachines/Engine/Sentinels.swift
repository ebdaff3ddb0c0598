// The named values that stand for "none" in the engine's integer tables, so that no bare -1 or
// -2 is compared: each table has its own name for what its negative values mean.

/// A state index that names no state: the parent of a top-level state.
@usableFromInline
enum StateIndex {
    @usableFromInline static let none = -1
}

/// What a cell of `ChartPlans.cells` holds besides a planned step (≥ 0).
@usableFromInline
enum PlanCell {
    /// The general algorithm decides (a guard, a `Refuse`, a history or final state on the way).
    @usableFromInline static let undecided: Int32 = -1
    /// No rule takes the event in this configuration: a refusal, `noTransition`.
    @usableFromInline static let refused: Int32 = -2
}

/// What `ChartRun.planned` holds besides the index of a planned configuration (≥ 0).
@usableFromInline
enum PlannedIndex {
    /// The active configuration changed since it was last looked up among the plans.
    @usableFromInline static let unknown = -1
    /// The active configuration was looked up since it last changed, and is not planned.
    @usableFromInline static let unplanned = -2
}

/// An index that finds nothing: an event no exact rule names (its slot), a rule on an exact
/// event (its kind), a kind no rule names, the end of a flat step chain.
@usableFromInline
enum NoIndex {
    @usableFromInline static let value = -1
}
