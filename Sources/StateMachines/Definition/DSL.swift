/// A transition on an event.
///
/// With a target it leaves the state (exit actions, then its own, then the target's entry
/// actions); with the state's own name as target it re-enters it; without a target it is an
/// internal transition that only runs its actions. Rules for one event are tried in the order
/// written: the first whose guard holds is taken. In a nested state, the innermost state's rules
/// are tried before its ancestors'.
///
/// ```swift
/// On(.brake, to: .stopped, when: Guard("speed ≤ 5") { $0.speed <= 5 }) { $0.speed -= 5 }
/// On(.brake) { $0.speed -= 5 }
/// On(.pay, to: .paid) { order, event in if case .pay(let cents) = event { order.paid += cents } }
/// ```
public struct On<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    let element: StateElement<State, Event, Context>

    init(
        match: RuleMatch<Event>, target: State?, guard: Guard<Context, Event>?, actions: [Action<Context, Event>],
        internal: Bool
    ) {
        element = .rule(match, to: target, when: `guard`, actions: actions, keepsSource: `internal`)
    }

    /// A transition with named actions.
    ///
    /// With `internal: true`, a transition from a compound state to one of its descendants does
    /// not exit and re-enter the state itself (SCXML's `type="internal"`).
    public init(
        _ event: Event, to target: State? = nil, when guard: Guard<Context, Event>? = nil,
        internal: Bool = false, actions: [Action<Context, Event>] = []
    ) {
        self.init(match: .event(event), target: target, guard: `guard`, actions: actions, internal: `internal`)
    }

    /// A transition with one unnamed action on the context.
    public init(
        _ event: Event, to target: State? = nil, when guard: Guard<Context, Event>? = nil,
        internal: Bool = false, _ action: @escaping @Sendable (inout Context) -> Void
    ) {
        self.init(event, to: target, when: `guard`, internal: `internal`, actions: [Action("action", action)])
    }

    /// A transition with one unnamed action on the context and the event.
    public init(
        _ event: Event, to target: State? = nil, when guard: Guard<Context, Event>? = nil,
        internal: Bool = false, _ action: @escaping @Sendable (inout Context, Event) -> Void
    ) {
        self.init(
            event, to: target, when: `guard`, internal: `internal`,
            actions: [Action("action") { context, event in if let event { action(&context, event) } }])
    }
}

extension On where Event: PayloadEvent {
    /// A transition on every event of `kind`, whatever its payload, with named actions.
    @_disfavoredOverload
    public init(
        _ kind: Event.Kind, to target: State? = nil, when guard: Guard<Context, Event>? = nil,
        internal: Bool = false, actions: [Action<Context, Event>] = []
    ) {
        self.init(
            match: .kind(KindKey(value: AnyHashable(kind)), label: "\(kind)"), target: target, guard: `guard`,
            actions: actions,
            internal: `internal`)
    }

    /// A transition on every event of `kind` with one unnamed action on the context.
    @_disfavoredOverload
    public init(
        _ kind: Event.Kind, to target: State? = nil, when guard: Guard<Context, Event>? = nil,
        internal: Bool = false, _ action: @escaping @Sendable (inout Context) -> Void
    ) {
        self.init(kind, to: target, when: `guard`, internal: `internal`, actions: [Action("action", action)])
    }

    /// A transition on every event of `kind` with one unnamed action that reads the payload.
    @_disfavoredOverload
    public init(
        _ kind: Event.Kind, to target: State? = nil, when guard: Guard<Context, Event>? = nil,
        internal: Bool = false, _ action: @escaping @Sendable (inout Context, Event) -> Void
    ) {
        self.init(
            kind, to: target, when: `guard`, internal: `internal`,
            actions: [Action("action") { context, event in if let event { action(&context, event) } }])
    }
}

/// Refuses an event in a state with a reason: the outcome is ``Refusal/Reason/rejected(_:)``.
///
/// Say what the user did wrong rather than letting the event fall through unanswered.
///
/// ```swift
/// Refuse(.park, "Can't park the vehicle while it's moving. You need to stop first")
/// ```
public struct Refuse<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    let element: StateElement<State, Event, Context>

    /// Refuses `event` with `reason`, when `guard` holds (or always, without one).
    public init(_ event: Event, _ reason: String, when guard: Guard<Context, Event>? = nil) {
        element = .rule(.event(event), when: `guard`, rejection: reason)
    }
}

extension Refuse where Event: PayloadEvent {
    /// Refuses every event of `kind` with `reason`.
    @_disfavoredOverload
    public init(_ kind: Event.Kind, _ reason: String, when guard: Guard<Context, Event>? = nil) {
        element = .rule(.kind(KindKey(value: AnyHashable(kind)), label: "\(kind)"), when: `guard`, rejection: reason)
    }
}

/// A timed transition: taken by itself once the state has been occupied for `delay`.
///
/// The delay may be computed from the context when the state is entered, and a guard is checked
/// when the timer comes due (when it fails, the timer is spent and nothing happens).
///
/// ```swift
/// After(.seconds(5), to: .stopped) { _ in print("Vehicle has stopped parking") }
/// After("green time", { $0.rushHour ? .seconds(60) : .seconds(30) }, to: .yellow)
/// ```
public struct After<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    let element: StateElement<State, Event, Context>

    /// A timed transition with named actions.
    public init(
        _ delay: Duration, to target: State, when guard: Guard<Context, Event>? = nil,
        actions: [Action<Context, Event>] = []
    ) {
        element = StateElement(
            kind: .timer(TimerDraft(delay: .fixed(delay), target: target, guard: `guard`, actions: actions)))
    }

    /// A timed transition with one unnamed action on the context.
    public init(
        _ delay: Duration, to target: State, when guard: Guard<Context, Event>? = nil,
        _ action: @escaping @Sendable (inout Context) -> Void
    ) {
        self.init(delay, to: target, when: `guard`, actions: [Action("action", action)])
    }

    /// A timed transition whose delay is computed from the context on entry; `name` labels it
    /// in diagrams (`after green time`).
    public init(
        _ name: String, _ delay: @escaping @Sendable (Context) -> Duration, to target: State,
        when guard: Guard<Context, Event>? = nil, actions: [Action<Context, Event>] = []
    ) {
        element = StateElement(
            kind: .timer(
                TimerDraft(delay: .computed(name, delay), target: target, guard: `guard`, actions: actions)))
    }
}

/// An action run each time the state is entered.
public struct Entry<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    let element: StateElement<State, Event, Context>

    /// An entry action named `name`.
    public init(_ name: String = "entry", _ action: @escaping @Sendable (inout Context) -> Void) {
        element = StateElement(kind: .entry(Action(name, action)))
    }

    /// An entry action that sees the event that entered the state (`nil` when there was none).
    public init(_ name: String = "entry", _ action: @escaping @Sendable (inout Context, Event?) -> Void) {
        element = StateElement(kind: .entry(Action(name, action)))
    }

    /// An entry action, such as ``Action/raise(_:)``.
    public init(_ action: Action<Context, Event>) {
        element = StateElement(kind: .entry(action))
    }
}

/// An action run each time the state is left by an external transition.
public struct Exit<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    let element: StateElement<State, Event, Context>

    /// An exit action named `name`.
    public init(_ name: String = "exit", _ action: @escaping @Sendable (inout Context) -> Void) {
        element = StateElement(kind: .exit(Action(name, action)))
    }

    /// An exit action that sees the event that left the state (`nil` when there was none).
    public init(_ name: String = "exit", _ action: @escaping @Sendable (inout Context, Event?) -> Void) {
        element = StateElement(kind: .exit(Action(name, action)))
    }

    /// An exit action, such as ``Action/raise(_:)``.
    public init(_ action: Action<Context, Event>) {
        element = StateElement(kind: .exit(action))
    }
}
