/// Declares a state and what happens in it.
///
/// ```swift
/// In(.parking) {
///     Entry("announce") { _ in print("Vehicle is now parking") }
///     After(.seconds(5), to: .stopped)
///     On(.brake, to: .stopped)
///     Refuse(.accelerate, "Vehicle is automatically parking, you can't accelerate!")
/// }
/// ```
public struct In<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    let state: State
    let isFinal: Bool
    let elements: [StateElement<State, Event, Context>]

    /// Declares `state`. A final state accepts no more events.
    public init(
        _ state: State, final isFinal: Bool = false,
        @StateBuilder<State, Event, Context> _ body: () -> [StateElement<State, Event, Context>] = { [] }
    ) {
        self.state = state
        self.isFinal = isFinal
        self.elements = body()
    }
}
