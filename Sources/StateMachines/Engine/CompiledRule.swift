public import StatechartSemantics

/// One rule of a definition as the engine reads it: the record every plan and table is derived
/// from, compiled once from a ``TransitionRule`` (numbered as `DefinitionStorage.rules`).
@usableFromInline
struct CompiledRule<Event, Context> {
    // Laid out widest first and the optionals together, so that a record is 176 bytes for a
    // one-byte event: the engine indexes the records with one multiplication.
    @usableFromInline let source: Int
    /// The state the rule enters; its source when it has no target.
    @usableFromInline let target: Int
    /// The rule's actions are `CompiledDefinition.actions[actionStart ..< actionEnd]`.
    @usableFromInline let actionStart: Int
    @usableFromInline let actionEnd: Int
    /// The rule's guard, if it has one (owned by the definition's ``BufferArena``).
    @usableFromInline let guardBody: Unmanaged<Box<GuardBody<Context, Event>>>?
    /// The reason a refusing rule gives; empty for the others.
    @usableFromInline let rejection: String
    /// The states the rule enters, computed with no history recorded.
    @usableFromInline let entry: StateSet
    /// The rule's transition domain (`nil`: the top level); read only for a rule that leaves its
    /// state.
    @usableFromInline let domain: Int?
    /// The rule's event among the events rules name (see ``EventSlots``); `nil` for a rule on a
    /// kind, eventless or done.
    @usableFromInline let slot: Int?
    /// The rule's kind among the kinds rules name (see ``KindReader``); `nil` for a rule on an
    /// exact event.
    @usableFromInline let kindIndex: Int?
    @usableFromInline let kind: RuleKind
    /// Whether the entry set must be computed when the rule is taken, after its exits have
    /// recorded the history it enters (a history target).
    @usableFromInline let isDynamic: Bool
    /// The exact event the rule is written for; `nil` for a rule on a kind, eventless or done.
    @usableFromInline let event: Event?

    /// Whether the rule stays in its state (an internal transition).
    @inlinable
    var isInternal: Bool { kind == .stays }

    /// Whether the rule matches `event`, whose kind index is `eventKind` (`nil`: a kind no rule
    /// names, or an event without kinds).
    @inlinable
    func matches(_ event: Event, kind eventKind: Int?) -> Bool where Event: Equatable {
        guard let kindIndex else { return self.event == event }
        return kindIndex == eventKind
    }

    /// Whether the rule's guard holds (a rule without one always does).
    @inlinable
    func holds(_ context: Context, _ event: Event) -> Bool {
        guard let guardBody else { return true }
        return guardBody._withUnsafeGuaranteedRef { $0.value.holds(context, event) }
    }

    /// Whether the rule's guard holds on a step without an event.
    @inlinable
    func holds(_ context: Context, _ event: Event?) -> Bool {
        guard let guardBody else { return true }
        return guardBody._withUnsafeGuaranteedRef { $0.value.holds(context, event) }
    }
}
