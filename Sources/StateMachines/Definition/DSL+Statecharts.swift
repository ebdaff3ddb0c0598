/// A history pseudo-state of a compound state: a transition that targets it re-enters the
/// parent where it was when last left, instead of at its initial child.
///
/// Shallow history remembers the parent's active child; deep history remembers every active
/// state below the parent. Before the parent has been left once, `default` is entered (the
/// parent's initial child when there is none; ``StateMachineDefinition/validate()`` reports it).
///
/// A transition to a history state exits what a transition to any child of the parent would
/// exit, recording the history as it leaves the parent, and then enters what the history holds
/// (SCXML's microstep: exit, then enter). So a transition from inside the parent exits the states
/// between the parent and the remembered ones and enters them again: their `Exit` and `Entry`
/// run once each and their timers and effects restart, as in sismic. SCXML's Appendix D
/// pseudo-code instead computes the domain from the remembered states and enters those states
/// again without exiting them: their `Entry` would run twice and their `Exit` never.
///
/// ```swift
/// In(.operating, initial: .normal) {
///     History(.resume, .deep, default: .normal)
///     In(.normal) { … }
/// }
/// In(.service) { On(.done, to: .resume) }
/// ```
public struct History<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    /// How much a history state remembers.
    public enum Depth: String, Hashable, Sendable {
        /// The parent's active child only; that child is entered at its initial state.
        case shallow
        /// Every active state below the parent.
        case deep
    }

    let element: StateElement<State, Event, Context>

    /// Declares the history state `state`, with what to enter before any history is recorded.
    public init(_ state: State, _ depth: Depth = .shallow, default defaultTarget: State? = nil) {
        element = StateElement(kind: .history(state: state, deep: depth == .deep, defaultTarget: defaultTarget))
    }
}

/// An eventless transition: taken as soon as the state is active and its guard holds, after the
/// step that made it so, before the next event.
///
/// Eventless transitions are taken until none is enabled; a cycle that never settles ends with
/// ``Refusal/Reason/endlessLoop(_:)`` after ``StateMachineDefinition/microstepLimit`` steps.
/// With `internal: true`, a transition from a compound state to one of its descendants keeps the
/// state active, as ``On`` does.
///
/// ```swift
/// In(.checking) {
///     Always(to: .approved, when: Guard("small") { $0.amount < 100 })
///     Always(to: .review)
/// }
/// ```
public struct Always<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    let element: StateElement<State, Event, Context>

    /// An eventless transition to `target` (or, without one, actions only).
    public init(
        to target: State? = nil, when guard: Guard<Context, Event>? = nil, actions: [Action<Context, Event>] = []
    ) {
        element = .rule(.eventless, to: target, when: `guard`, actions: actions)
    }

    /// An eventless transition with one unnamed action on the context.
    public init(
        to target: State? = nil, when guard: Guard<Context, Event>? = nil,
        _ action: @escaping @Sendable (inout Context) -> Void
    ) {
        self.init(to: target, when: `guard`, actions: [Action("action", action)])
    }

    /// An eventless transition that, with `internal: true`, keeps its compound source active when
    /// its target is a descendant (SCXML's `type="internal"`, as ``On`` has it).
    ///
    /// ```swift
    /// In(.editing, initial: .clean) {
    ///     // Taken once per change (its action clears the flag); `editing` is not exited.
    ///     Always(to: .dirty, when: Guard("changed") { $0.changed }, internal: true) { $0.changed = false }
    ///     In(.clean)
    ///     In(.dirty)
    /// }
    /// ```
    public init(
        to target: State? = nil, when guard: Guard<Context, Event>? = nil, internal: Bool,
        actions: [Action<Context, Event>] = []
    ) {
        element = .rule(.eventless, to: target, when: `guard`, actions: actions, keepsSource: `internal`)
    }

    /// An eventless transition, internal or not, with one unnamed action on the context.
    public init(
        to target: State? = nil, when guard: Guard<Context, Event>? = nil, internal: Bool,
        _ action: @escaping @Sendable (inout Context) -> Void
    ) {
        self.init(to: target, when: `guard`, internal: `internal`, actions: [Action("action", action)])
    }
}

/// A transition taken when its compound state is done (a final child was entered) or its
/// parallel state is done (every region is in a final state): SCXML's `done.state.ID` event.
///
/// ```swift
/// In(.crossing, initial: .walk) {
///     In(.walk) { After(.seconds(8), to: .finished) }
///     In(.finished, final: true)
///     OnDone(to: .dontWalk)
/// }
/// ```
public struct OnDone<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    let element: StateElement<State, Event, Context>

    /// A done transition to `target` (or, without one, actions only).
    public init(
        to target: State? = nil, when guard: Guard<Context, Event>? = nil, actions: [Action<Context, Event>] = []
    ) {
        element = .rule(.done, to: target, when: `guard`, actions: actions)
    }

    /// A done transition with one unnamed action on the context.
    public init(
        to target: State? = nil, when guard: Guard<Context, Event>? = nil,
        _ action: @escaping @Sendable (inout Context) -> Void
    ) {
        self.init(to: target, when: `guard`, actions: [Action("action", action)])
    }
}
