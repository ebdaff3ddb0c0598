/// One transition of a definition: in `source`, on `event` (when `guard` holds), run `actions`
/// and go to `target`.
///
/// A rule without a target is *internal*: the state's exit and entry actions do not run and its
/// timers and effects go on. A rule whose target is its source is an *external self-transition*:
/// exit and entry run again and timers restart. A rule with a `rejection` refuses the event with
/// that reason.
public struct TransitionRule<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    /// The state the rule leaves.
    public let source: State
    /// The event that triggers the rule.
    public let event: Event
    /// The state the rule enters, or `nil` for an internal transition.
    public let target: State?
    /// The condition the rule needs, if any.
    public let `guard`: Guard<Context, Event>?
    /// The actions run while the rule is taken, in order.
    public let actions: [Action<Context, Event>]
    /// The reason given when the rule refuses its event; `nil` for a rule that transitions.
    public let rejection: String?

    @usableFromInline
    var targetIndex: Int = -1

    /// 0: leaves the state, 1: internal, 2: refuses.
    @usableFromInline
    var kind: UInt8 = 0

    init(
        source: State, event: Event, target: State?, guard: Guard<Context, Event>?,
        actions: [Action<Context, Event>], rejection: String?
    ) {
        self.source = source
        self.event = event
        self.target = target
        self.guard = `guard`
        self.actions = actions
        self.rejection = rejection
        self.kind = rejection != nil ? 2 : (target == nil ? 1 : 0)
    }

    /// Whether the rule keeps the machine in its state without exit and entry.
    public var isInternal: Bool { target == nil && rejection == nil }
}

/// A transition taken by itself when its state has been occupied for `delay`.
///
/// The runtime arms it on entry, on its clock, and cancels it on exit: leaving the state first
/// means it never fires.
public struct TimedRule<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    /// The state the rule leaves.
    public let source: State
    /// How long the state must be occupied.
    public let delay: Duration
    /// The state the rule enters.
    public let target: State
    /// The actions run while the rule is taken.
    public let actions: [Action<Context, Event>]

    @usableFromInline
    var targetIndex: Int = -1
}
