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

extension Refusal: CustomStringConvertible {
    public var description: String {
        switch reason {
        case .noTransition: "no transition for event '\(event)' in state '\(state)'"
        case .guardFailed(let guards):
            "event '\(event)' in state '\(state)' refused by guard \(guards.map { "'\($0)'" }.joined(separator: ", "))"
        case .rejected(let message): message
        case .finalState: "state '\(state)' is final: event '\(event)' ignored"
        }
    }
}
