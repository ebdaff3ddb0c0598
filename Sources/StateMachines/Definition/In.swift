/// Declares a state and what happens in it, including the states nested in it.
///
/// A state with `In` children is *compound*: entering it enters its `initial` child (the first
/// child when none is named), exactly one child is active at a time, and a child inherits the
/// parent's transitions (the innermost rule that matches wins).
///
/// ```swift
/// In(.parking) {
///     Entry("announce") { _ in print("Vehicle is now parking") }
///     After(.seconds(5), to: .stopped)
///     On(.brake, to: .stopped)
///     Refuse(.accelerate, "Vehicle is automatically parking, you can't accelerate!")
/// }
/// In(.operating, initial: .idle) {
///     On(.fault, to: .broken)   // taken from .idle and .busy alike
///     In(.idle) { On(.start, to: .busy) }
///     In(.busy) { On(.finish, to: .idle) }
/// }
/// ```
public struct In<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    let state: State
    let isFinal: Bool
    let isParallel: Bool
    let initial: State?
    let elements: [StateElement<State, Event, Context>]

    /// Declares `state`. A final state completes its parent (see ``OnDone``); at the top level it
    /// ends the machine, which then accepts no more events.
    public init(
        _ state: State, final isFinal: Bool = false,
        @StateBuilder<State, Event, Context> _ body: () -> [StateElement<State, Event, Context>] = { [] }
    ) {
        self.init(state: state, isFinal: isFinal, isParallel: false, initial: nil, elements: body())
    }

    /// Declares a compound `state` that starts in its child `initial`.
    public init(
        _ state: State, initial: State,
        @StateBuilder<State, Event, Context> _ body: () -> [StateElement<State, Event, Context>]
    ) {
        self.init(state: state, isFinal: false, isParallel: false, initial: initial, elements: body())
    }

    init(
        state: State, isFinal: Bool, isParallel: Bool, initial: State?, elements: [StateElement<State, Event, Context>]
    ) {
        self.state = state
        self.isFinal = isFinal
        self.isParallel = isParallel
        self.initial = initial
        self.elements = elements
    }
}

/// Declares a parallel state: each of its children is a region, and all of them are active at
/// once. An event is offered to every region in document order; when every region has reached
/// a final state, the parallel state is done (see ``OnDone``).
///
/// ```swift
/// Parallel(.running) {
///     In(.cars, initial: .green) { … }
///     In(.pedestrians, initial: .dontWalk) { … }
/// }
/// ```
public struct Parallel<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    let node: In<State, Event, Context>

    /// Declares the parallel `state` with its regions and its own transitions and actions.
    public init(
        _ state: State, @StateBuilder<State, Event, Context> _ body: () -> [StateElement<State, Event, Context>]
    ) {
        node = In(state: state, isFinal: false, isParallel: true, initial: nil, elements: body())
    }
}
