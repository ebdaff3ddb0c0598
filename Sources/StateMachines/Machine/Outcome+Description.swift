extension Outcome: CustomStringConvertible {
    /// The transition's description, or "refused: " and the refusal's.
    ///
    /// ```swift
    /// print(machine.send(.open))  // refused: no transition for event 'open' in state 'open'
    /// ```
    public var description: String {
        switch self {
        case .transitioned(let transition): transition.description
        case .refused(let refusal): "refused: \(refusal)"
        }
    }
}
