/// Why a machine did not act on an event. A refusal is an answer, never a crash.
public struct Refusal<State: Hashable & Sendable, Event: Hashable & Sendable>: Error, Hashable, Sendable {
    /// Why the event was refused.
    public enum Reason: Hashable, Sendable {
        /// No transition for this event in this state.
        case noTransition
        /// Transitions exist, but the guard of each failed; their names in order.
        case guardFailed([String])
        /// The definition refuses the event here with this reason (see ``Refuse``).
        case rejected(String)
        /// The machine is in a final state and takes no more events.
        case finalState
        /// Eventless transitions and raised events did not settle within this many steps: an
        /// endless loop, cut short (see ``StateMachineDefinition/microstepLimit``).
        case endlessLoop(Int)
        /// The runtime was stopped and takes no more events.
        case stopped
        /// A guard or action sent this event to its own runtime while the runtime was running it;
        /// raise the event instead (see ``Action/raise(_:)``), or send it from an effect or observer.
        case reentrant
    }

    /// The state the machine was, and still is, in.
    public let state: State
    /// The refused event.
    public let event: Event
    /// Why.
    public let reason: Reason

    /// Creates a refusal, as the machine does; for tests and replays.
    @inlinable
    public init(state: State, event: Event, reason: Reason) {
        self.state = state
        self.event = event
        self.reason = reason
    }
}
