/// A named, synchronous piece of work a machine runs on its context: on entry to a state, on
/// exit from it, or while taking a transition.
///
/// Actions run inside ``StateMachine/send(_:)``; they should only update the context (or hand
/// a line to a sink they captured). Long or asynchronous work belongs in an ``Effect``.
public struct Action<Context, Event>: Sendable {
    /// The name diagrams and outcomes show.
    public let name: String

    @usableFromInline
    let body: @Sendable (inout Context, Event?) -> Void

    /// Creates an action that sees the triggering event (`nil` on a timer, entry of the initial
    /// state, or a restore).
    public init(_ name: String = "action", _ body: @escaping @Sendable (inout Context, Event?) -> Void) {
        self.name = name
        self.body = body
    }

    /// Creates an action on the context alone.
    public init(_ name: String = "action", _ body: @escaping @Sendable (inout Context) -> Void) {
        self.name = name
        self.body = { context, _ in body(&context) }
    }
}

/// A named condition a transition needs before it is taken.
///
/// When every transition for an event is refused by its guard, the outcome names the guards that
/// failed.
public struct Guard<Context, Event>: Sendable {
    /// The name diagrams and refusals show, such as `"speed ≤ 5"`.
    public let name: String

    @usableFromInline
    let condition: @Sendable (Context, Event) -> Bool

    /// Creates a guard that sees the context and the event.
    public init(_ name: String, _ condition: @escaping @Sendable (Context, Event) -> Bool) {
        self.name = name
        self.condition = condition
    }

    /// Creates a guard on the context alone.
    public init(_ name: String, _ condition: @escaping @Sendable (Context) -> Bool) {
        self.name = name
        self.condition = { context, _ in condition(context) }
    }
}
