/// What a rule does when it is taken.
@usableFromInline
enum RuleKind: UInt8, Sendable {
    /// Leaves its state: exit actions, the rule's actions, then the target's entry actions.
    case leaves
    /// Stays in its state (an internal transition): the rule's actions only.
    case stays
    /// Refuses the event with a reason (`Refuse`).
    case refuses
}

/// Which path `send` takes first for an event with a slot, decided once per definition.
@usableFromInline
enum DispatchMode: UInt8, Sendable {
    /// A flat machine with one-byte events: `FlatPlan.first` for the state and slot.
    case flat
    /// A statechart with one-byte events and plans: `ChartPlans.cells` for the configuration and slot.
    case planned
    /// Every event goes to the scan or the general statechart algorithm.
    case general
}
