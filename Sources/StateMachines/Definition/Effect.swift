/// Asynchronous work that runs while a state is occupied, and is cancelled when it is left.
///
/// Only the ``StateMachineRuntime`` runs effects; the pure ``StateMachine`` lists them.
public struct Effect<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    /// The name diagrams show.
    public let name: String

    @usableFromInline
    let body: @Sendable (Context, EventSender<Event>) async -> Void

    /// Creates an effect. It receives the context as it was on entry and a sender for feeding
    /// events back to the runtime (a result, a failure, a tick).
    public init(
        _ name: String,
        _ body: @escaping @Sendable (_ context: Context, _ send: EventSender<Event>) async -> Void
    ) {
        self.name = name
        self.body = body
    }

    /// Runs the effect's body with `context` and `send`: for a runtime of your own (a durable
    /// machine's worker, a test). ``StateMachineRuntime`` runs effects itself.
    public func run(_ context: Context, sending send: EventSender<Event>) async {
        await body(context, send)
    }
}

/// Feeds events from an ``Effect`` back into the runtime that started it.
public struct EventSender<Event: Sendable>: Sendable {
    private let deliver: @Sendable (Event) -> Void

    /// Creates a sender that hands each event to `deliver`: for a runtime of your own (a durable
    /// machine's worker, a test) that runs an ``Effect``'s body.
    public init(_ deliver: @escaping @Sendable (Event) -> Void) {
        self.deliver = deliver
    }

    /// Sends `event` to the runtime, unless it has been released.
    public func send(_ event: Event) {
        deliver(event)
    }
}
