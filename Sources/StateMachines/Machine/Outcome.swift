/// The answer to ``StateMachine/send(_:)``: the transition taken, or why there was none.
public enum Outcome<State: Hashable & Sendable, Event: Hashable & Sendable>: Hashable, Sendable {
    /// The machine took this transition (its actions have run).
    case transitioned(Transition<State, Event>)
    /// The machine refused the event and stayed where it was; the refusal says why.
    case refused(Refusal<State, Event>)

    /// The transition taken, if any.
    @inlinable
    public var transition: Transition<State, Event>? {
        if case .transitioned(let transition) = self { return transition }
        return nil
    }

    /// The refusal, if the event was refused.
    @inlinable
    public var refusal: Refusal<State, Event>? {
        if case .refused(let refusal) = self { return refusal }
        return nil
    }

    /// Whether a transition was taken.
    @inlinable
    public var isTransition: Bool {
        if case .transitioned = self { return true }
        return false
    }
}
