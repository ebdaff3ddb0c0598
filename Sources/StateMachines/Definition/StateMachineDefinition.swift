internal import StatechartSemantics

/// An immutable description of a state machine: its states, events, transitions, timers,
/// actions and effects.
///
/// A definition is data: build it once, share it between machines and tasks, check it with
/// ``validate()``, draw it with ``mermaid()`` or ``dot()``, run it with ``StateMachine`` or
/// ``StateMachineRuntime``.
///
/// ```swift
/// enum Light: Hashable, Sendable { case green, yellow, red }
/// enum Signal: Hashable, Sendable { case next }
///
/// let traffic = StateMachineDefinition<Light, Signal, Int>(initial: .green) {
///     In(.green) { On(.next, to: .yellow) { $0 += 1 } }
///     In(.yellow) { On(.next, to: .red) { $0 += 1 } }
///     In(.red) { After(.seconds(30), to: .green) }
/// }
/// var machine = StateMachine(traffic, context: 0)
/// machine.send(.next)   // .transitioned(green → yellow)
/// ```
public struct StateMachineDefinition<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>:
    Sendable
{
    @usableFromInline
    let storage: DefinitionStorage<State, Event, Context>

    /// Creates a definition that starts in `initial`, with the states the builder declares.
    ///
    /// A state named only as a target is still given a place, so that the machine can run, but
    /// ``validate()`` reports it as undeclared. `microstepLimit` bounds the eventless and raised
    /// steps one event may cause: past it, the event ends with
    /// ``Refusal/Reason/endlessLoop(_:)`` instead of hanging.
    public init(
        initial: State, microstepLimit: Int = 1_000,
        @DefinitionBuilder<State, Event, Context> states: () -> [In<State, Event, Context>]
    ) {
        storage = DefinitionStorage(
            initial: initial, declarations: states(), microstepLimit: Swift.max(1, microstepLimit))
    }

    /// The bound on eventless and raised steps per event.
    public var microstepLimit: Int { storage.chart.microstepLimit }

    /// Whether the definition uses statechart features (nesting, regions, history, eventless or
    /// done transitions, raised events, rules on event kinds); a flat one runs as a table walk.
    public var isStatechart: Bool { storage.chart.isChart }

    /// The state `state` is nested in, or `nil` at the top level.
    public func parent(of state: State) -> State? {
        guard let index = storage.index[state], let parent = storage.nodes[index].parent else { return nil }
        return storage.states[parent]
    }

    /// The states nested directly in `state` (the regions of a parallel state), in document order.
    public func children(of state: State) -> [State] {
        guard let index = storage.index[state] else { return [] }
        return storage.nodes[index].children.map { storage.states[$0] }
    }

    /// Whether `state` is a parallel state.
    public func isParallel(_ state: State) -> Bool { node(state)?.kind == .parallel }

    /// Whether `state` is a history state.
    public func isHistory(_ state: State) -> Bool { node(state)?.kind == .history }

    /// The eventless transitions (``Always``) and done transitions (``OnDone``) are in ``rules``
    /// too; these are the rules of `state` itself, in the order written.
    public func rules(of state: State) -> [TransitionRule<State, Event, Context>] {
        storage.rules.filter { $0.source == state }
    }

    /// The state a new machine is in.
    public var initialState: State { storage.states[storage.initialIndex] }

    /// Every state, declared (depth first, in document order) or only named as a target.
    public var states: [State] { storage.states }

    /// The states declared with ``In``.
    public var declaredStates: [State] {
        storage.states.indices.filter { storage.nodes[$0].isDeclared }.map { storage.states[$0] }
    }

    /// The states declared final.
    public var finalStates: [State] {
        storage.states.indices.filter { storage.nodes[$0].isFinal }.map { storage.states[$0] }
    }

    /// Every event a transition or refusal names exactly, in order of first mention.
    public var events: [Event] { storage.events }

    /// Every transition and refusal, state by state, in the order written.
    public var rules: [TransitionRule<State, Event, Context>] { storage.rules }

    /// Every timed transition.
    public var timedRules: [TimedRule<State, Event, Context>] { storage.nodes.flatMap(\.timers) }

    /// The entry actions of `state`.
    public func entryActions(of state: State) -> [Action<Context, Event>] { node(state)?.entry ?? [] }

    /// The exit actions of `state`.
    public func exitActions(of state: State) -> [Action<Context, Event>] { node(state)?.exit ?? [] }

    /// The effects run while `state` is occupied.
    public func effects(of state: State) -> [Effect<State, Event, Context>] { node(state)?.effects ?? [] }

    /// The timed transitions of `state`.
    public func timedRules(of state: State) -> [TimedRule<State, Event, Context>] { node(state)?.timers ?? [] }

    /// Whether `state` is final.
    public func isFinal(_ state: State) -> Bool { node(state)?.isFinal ?? false }

    func node(_ state: State) -> StateNode<State, Event, Context>? {
        storage.index[state].map { storage.nodes[$0] }
    }
}
