public import StateMachines

/// One step of a model path: an event sent, or a timer fired.
public enum ModelStep<Event: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// Send this event.
    case send(Event)
    /// Fire the armed timer at this position in `StateMachine.armedTimers` (document order),
    /// due after this delay.
    case timer(position: Int, delay: Duration)

    /// The event, or "after" and the timer's delay.
    public var description: String {
        switch self {
        case .send(let event): "\(event)"
        case .timer(_, let delay): "after \(delay)"
        }
    }
}

/// A sequence of steps from the initial state, and the transitions the model takes on it.
///
/// ```swift
/// for path in model.transitionCoverage() { print(path) }   // accelerate → brake → park …
/// ```
public struct ModelPath<State: Hashable & Sendable, Event: Hashable & Sendable>: Hashable, Sendable,
    CustomStringConvertible
{
    /// The steps, in order.
    public let steps: [ModelStep<Event>]
    /// The transitions each step took, in order (a step may take several in a statechart: one
    /// per region, then eventless and raised steps).
    public let transitions: [[Transition<State, Event>]]
    /// The configuration the path ends in.
    public let configuration: [State]

    /// Creates a path.
    public init(steps: [ModelStep<Event>], transitions: [[Transition<State, Event>]], configuration: [State]) {
        self.steps = steps
        self.transitions = transitions
        self.configuration = configuration
    }

    /// The steps joined by arrows, then the configuration they reach: `accelerate → brake ⇒ stopped`.
    public var description: String {
        let route = steps.isEmpty ? "(start)" : steps.map(\.description).joined(separator: " → ")
        return "\(route) ⇒ \(configuration.map { "\($0)" }.joined(separator: ", "))"
    }
}
