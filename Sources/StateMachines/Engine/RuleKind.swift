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
