/// A named, synchronous piece of work a machine runs on its context: on entry to a state, on
/// exit from it, or while taking a transition.
///
/// Actions run inside ``StateMachine/send(_:)``; they should only update the context (or hand
/// a line to a sink they captured). Long or asynchronous work belongs in an ``Effect``; an event
/// for the machine itself is raised with ``raise(_:)``.
///
/// ```swift
/// On(.pay, to: .paid, actions: [Action("add") { cart, event in cart.paid += event?.cents ?? 0 }])
/// ```
public struct Action<Context, Event>: Sendable {
    /// The name diagrams and outcomes show.
    public let name: String

    @usableFromInline
    let body: ActionBody<Context, Event>

    /// Creates an action that sees the triggering event with its payload (`nil` on a timer, an
    /// eventless or done transition, entry of the initial state, or a restore).
    public init(_ name: String = "action", _ body: @escaping @Sendable (inout Context, Event?) -> Void) {
        self.name = name
        self.body = .withEvent(body)
    }

    /// Creates an action on the context alone.
    public init(_ name: String = "action", _ body: @escaping @Sendable (inout Context) -> Void) {
        self.name = name
        self.body = .contextOnly(body)
    }

    init(name: String, body: ActionBody<Context, Event>) {
        self.name = name
        self.body = body
    }

    /// An action that raises `event` onto the machine's internal queue: it is processed after
    /// the current step and before the next event sent from outside (run to completion).
    ///
    /// ```swift
    /// On(.pay, to: .paid, actions: [.raise(.printReceipt)])
    /// ```
    public static func raise(_ event: Event) -> Action where Event: Sendable {
        Action(name: "raise \(event)", body: .raise { _, _ in event })
    }

    /// An action that raises the event `make` returns (none when it returns `nil`), computed from
    /// the context and the triggering event.
    public static func raise(
        _ name: String, _ make: @escaping @Sendable (Context, Event?) -> Event?
    ) -> Action {
        Action(name: name, body: .raise(make))
    }

    /// Whether this action raises an event.
    public var raises: Bool {
        if case .raise = body { return true }
        return false
    }
}

/// A named condition a transition needs before it is taken.
///
/// When every transition for an event is refused by its guard, the outcome names the guards that
/// failed. A guard that reads the event is false on transitions without one (timers, eventless
/// and done transitions).
public struct Guard<Context, Event>: Sendable {
    /// The name diagrams and refusals show, such as `"speed ≤ 5"`.
    public let name: String

    @usableFromInline
    let body: GuardBody<Context, Event>

    /// Creates a guard that sees the context and the event with its payload.
    public init(_ name: String, _ condition: @escaping @Sendable (Context, Event) -> Bool) {
        self.name = name
        self.body = .withEvent(condition)
    }

    /// Creates a guard on the context alone.
    public init(_ name: String, _ condition: @escaping @Sendable (Context) -> Bool) {
        self.name = name
        self.body = .contextOnly(condition)
    }
}

/// An action's closure, kept as the user wrote it: wrapping one closure in another would cost a
/// retained context on every call.
@usableFromInline
enum ActionBody<Context, Event>: Sendable {
    case contextOnly(@Sendable (inout Context) -> Void)
    case withEvent(@Sendable (inout Context, Event?) -> Void)
    case raise(@Sendable (Context, Event?) -> Event?)

    /// Runs the action; a raise is not run here (see `StateMachine.runChartActions`).
    @inlinable
    func run(_ context: inout Context, _ event: Event?) {
        switch self {
        case .contextOnly(let body): body(&context)
        case .withEvent(let body): body(&context, event)
        case .raise: break
        }
    }
}

/// A guard's closure, kept as the user wrote it; `.always` for a rule without a guard.
@usableFromInline
enum GuardBody<Context, Event>: Sendable {
    case always
    case contextOnly(@Sendable (Context) -> Bool)
    case withEvent(@Sendable (Context, Event) -> Bool)

    @inlinable
    func holds(_ context: Context, _ event: Event) -> Bool {
        switch self {
        case .always: true
        case .contextOnly(let condition): condition(context)
        case .withEvent(let condition): condition(context, event)
        }
    }

    /// For transitions without an event: a guard on the event is false.
    @inlinable
    func holds(_ context: Context, _ event: Event?) -> Bool {
        switch self {
        case .always: true
        case .contextOnly(let condition): condition(context)
        case .withEvent(let condition): event.map { condition(context, $0) } ?? false
        }
    }
}
