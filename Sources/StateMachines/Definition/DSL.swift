/// A transition on an event.
///
/// With a target it leaves the state (exit actions, then its own, then the target's entry
/// actions); with the state's own name as target it re-enters it; without a target it is an
/// internal transition that only runs its actions. Rules for one event are tried in the order
/// written: the first whose guard holds is taken.
///
/// ```swift
/// On(.brake, to: .stopped, when: Guard("speed ≤ 5") { $0.speed <= 5 }) { $0.speed -= 5 }
/// On(.brake) { $0.speed -= 5 }
/// ```
public struct On<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    let element: StateElement<State, Event, Context>

    /// A transition with named actions.
    public init(
        _ event: Event, to target: State? = nil, when guard: Guard<Context, Event>? = nil,
        actions: [Action<Context, Event>] = []
    ) {
        element = StateElement(
            kind: .rule(event: event, target: target, guard: `guard`, actions: actions, rejection: nil))
    }

    /// A transition with one unnamed action on the context.
    public init(
        _ event: Event, to target: State? = nil, when guard: Guard<Context, Event>? = nil,
        _ action: @escaping @Sendable (inout Context) -> Void
    ) {
        self.init(event, to: target, when: `guard`, actions: [Action("action", action)])
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
        element = StateElement(kind: .rule(event: event, target: nil, guard: `guard`, actions: [], rejection: reason))
    }
}

/// A timed transition: taken by itself once the state has been occupied for `delay`.
///
/// ```swift
/// After(.seconds(5), to: .stopped) { _ in print("Vehicle has stopped parking") }
/// ```
public struct After<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    let element: StateElement<State, Event, Context>

    /// A timed transition with named actions.
    public init(_ delay: Duration, to target: State, actions: [Action<Context, Event>] = []) {
        element = StateElement(kind: .timer(delay: delay, target: target, actions: actions))
    }

    /// A timed transition with one unnamed action on the context.
    public init(_ delay: Duration, to target: State, _ action: @escaping @Sendable (inout Context) -> Void) {
        self.init(delay, to: target, actions: [Action("action", action)])
    }
}

/// An action run each time the state is entered.
public struct Entry<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    let element: StateElement<State, Event, Context>

    /// An entry action named `name`.
    public init(_ name: String = "entry", _ action: @escaping @Sendable (inout Context) -> Void) {
        element = StateElement(kind: .entry(Action(name, action)))
    }
}

/// An action run each time the state is left by an external transition.
public struct Exit<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    let element: StateElement<State, Event, Context>

    /// An exit action named `name`.
    public init(_ name: String = "exit", _ action: @escaping @Sendable (inout Context) -> Void) {
        element = StateElement(kind: .exit(Action(name, action)))
    }
}
