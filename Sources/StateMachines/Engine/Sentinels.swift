// The named values that stand for "none" in the engine's packed tables, which `send` reads on its
// hot path (four bytes a cell, one sign test): each table has its own name for what its negative
// values mean. Everywhere else, "none" is an `Optional`.

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

/// A cell of a packed table that finds nothing: an event no exact rule names (`EventSlots`), no
/// first step or the end of a step chain (`FlatPlan`).
@usableFromInline
enum NoIndex {
    @usableFromInline static let value = -1
}
