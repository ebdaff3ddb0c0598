extension Refusal: CustomStringConvertible {
    /// Why, naming the event and the state: "no transition for event 'open' in state 'open'";
    /// a ``Refuse`` rule's own reason as written.
    ///
    /// ```swift
    /// machine.send(.open).refusal?.description  // no transition for event 'open' in state 'open'
    /// ```
    public var description: String {
        switch reason {
        case .noTransition: "no transition for event '\(event)' in state '\(state)'"
        case .guardFailed(let guards):
            "event '\(event)' in state '\(state)' refused by guard \(guards.map { "'\($0)'" }.joined(separator: ", "))"
        case .rejected(let message): message
        case .finalState: "state '\(state)' is final: event '\(event)' ignored"
        case .endlessLoop(let steps):
            "event '\(event)' in state '\(state)': eventless transitions and raised events did not settle after \(steps) steps (an endless loop, cut short)"
        case .stopped: "the runtime is stopped: event '\(event)' ignored"
        case .reentrant:
            "event '\(event)' was sent to the runtime by its own guard or action while it was running one; raise it with Action.raise instead, or send it from an effect or observer"
        }
    }
}
