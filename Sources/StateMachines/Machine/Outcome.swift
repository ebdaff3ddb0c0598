/// The answer to ``StateMachine/send(_:)``: the transition taken, or why there was none.
public enum Outcome<State: Hashable & Sendable, Event: Hashable & Sendable>: Hashable, Sendable {
    case transitioned(Transition<State, Event>)
    case refused(Refusal<State, Event>)

    /// The transition taken, if any.
    public var transition: Transition<State, Event>? {
        if case .transitioned(let transition) = self { return transition }
        return nil
    }

    /// The refusal, if the event was refused.
    public var refusal: Refusal<State, Event>? {
        if case .refused(let refusal) = self { return refusal }
        return nil
    }

    /// Whether a transition was taken.
    public var isTransition: Bool { transition != nil }
}

extension Outcome: CustomStringConvertible {
    public var description: String {
        switch self {
        case .transitioned(let transition): transition.description
        case .refused(let refusal): "refused: \(refusal)"
        }
    }
}
