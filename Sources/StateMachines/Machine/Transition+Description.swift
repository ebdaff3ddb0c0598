extension Transition: CustomStringConvertible {
    /// "closed → open on open", "moving on accelerate (internal)", "parking → stopped on after 5 s":
    /// the source, the target and the trigger, for logs and traces.
    ///
    /// ```swift
    /// print(machine.send(.open))  // closed → open on open
    /// ```
    public var description: String {
        let cause: String
        switch trigger {
        case .event(let event): cause = "\(event)"
        case .timer(let delay): cause = "after \(delay.label)"
        case .raised(let event): cause = "raised \(event)"
        case .eventless: cause = "always"
        case .done: cause = "done.state.\(source)"
        }
        return isInternal ? "\(source) on \(cause) (internal)" : "\(source) → \(target) on \(cause)"
    }
}
