/// One transition of a definition: in `source`, on `trigger` (when `guard` holds), run `actions`
/// and go to `target`.
///
/// A rule without a target is *internal*: the state's exit and entry actions do not run and its
/// timers and effects go on. A rule whose target is its source is an *external self-transition*:
/// exit and entry run again and timers restart. A rule with a `rejection` refuses the event with
/// that reason.
public struct TransitionRule<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    /// The state that declares the rule; in a nested state, it also applies to every descendant.
    public let source: State
    /// What triggers the rule: an event, any event of a kind, nothing (eventless), or completion.
    public let trigger: RuleTrigger<Event>
    /// The state the rule enters, or `nil` for an internal transition.
    public let target: State?
    /// The condition the rule needs, if any.
    public let `guard`: Guard<Context, Event>?
    /// The actions run while the rule is taken, in order.
    public let actions: [Action<Context, Event>]
    /// The reason given when the rule refuses its event; `nil` for a rule that transitions.
    public let rejection: String?
    /// Whether a transition to a descendant of the (compound) source keeps the source active
    /// (SCXML's `type="internal"`).
    public let keepsSource: Bool

    /// The kind a kind rule matches, as the definition numbers kinds; `nil` for other rules.
    let kindKey: KindKey?

    init(source: State, draft: RuleDraft<State, Event, Context>) {
        self.source = source
        var kindKey: KindKey?
        switch draft.match {
        case .event(let event): self.trigger = .event(event)
        case .kind(let key, let label):
            self.trigger = .kind(label)
            kindKey = key
        case .eventless: self.trigger = .eventless
        case .done: self.trigger = .done
        }
        self.kindKey = kindKey
        self.target = draft.target
        self.guard = draft.guard
        self.actions = draft.actions
        self.rejection = draft.rejection
        self.keepsSource = draft.keepsSource
    }

    /// What the rule does when taken: leaves its state, stays in it, or refuses.
    var ruleKind: RuleKind { rejection != nil ? .refuses : (target == nil ? .stays : .leaves) }

    /// The event the rule is written for, when it is written for one exact event.
    public var event: Event? {
        if case .event(let event) = trigger { return event }
        return nil
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
    /// How long the state must be occupied: fixed, or computed from the context on entry.
    public let delay: TimerDelay<Context>
    /// The state the rule enters.
    public let target: State
    /// The condition checked when the timer comes due, if any.
    public let `guard`: Guard<Context, Event>?
    /// The actions run while the rule is taken.
    public let actions: [Action<Context, Event>]

    init(source: State, draft: TimerDraft<State, Event, Context>) {
        self.source = source
        self.delay = draft.delay
        self.target = draft.target
        self.guard = draft.guard
        self.actions = draft.actions
    }

    /// The delay when it is fixed; `nil` when it is computed from the context.
    public var fixedDelay: Duration? {
        if case .fixed(let delay) = delay { return delay }
        return nil
    }
}
