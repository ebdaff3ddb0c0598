/// A running instance of a definition as a plain value: the current state and the user's
/// context.
///
/// `send(_:)` decides synchronously, runs the actions, and returns what happened. There is no
/// time, no task and no lock here: this is the hot path, and it costs about what a hand-written
/// `switch` does. For timers, effects and observers, wrap it in a ``StateMachineRuntime``.
///
/// ```swift
/// var machine = StateMachine(vehicleDefinition, context: Vehicle())
/// machine.send(.accelerate)   // .transitioned(stopped → moving on accelerate)
/// machine.send(.park)         // .refused(... "Can't park the vehicle while it's moving ...")
/// machine.context.speed       // 5
/// ```
public struct StateMachine<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    @usableFromInline
    let storage: DefinitionStorage<State, Event, Context>

    @usableFromInline
    var stateIndex: Int

    /// Counts state entries, so that a timer armed before the state was left is known stale.
    @usableFromInline
    var epoch: UInt64 = 0

    /// The user's data the actions read and write.
    public var context: Context

    /// Creates a machine in the definition's initial state and runs that state's entry actions.
    public init(_ definition: StateMachineDefinition<State, Event, Context>, context: Context) {
        self.storage = definition.storage
        self.stateIndex = definition.storage.initialIndex
        self.context = context
        for action in storage.entryActions[stateIndex] { action.body(&self.context, nil) }
    }

    /// The definition this machine runs.
    public var definition: StateMachineDefinition<State, Event, Context> { StateMachineDefinition(storage: storage) }

    /// The current state.
    @inlinable
    public var state: State { storage.states[stateIndex] }

    /// Whether the machine is in a final state.
    public var isFinished: Bool { storage.finalFlags[stateIndex] }

    /// Sends `event`: takes the first transition for it whose guard holds, running exit
    /// actions, the transition's actions and entry actions, in that order.
    ///
    /// - Returns: the transition taken, or a refusal that says why there was none.
    /// - Complexity: O(*r*), where *r* is the number of rules of the current state.
    @inlinable
    @discardableResult
    public mutating func send(_ event: Event) -> Outcome<State, Event> {
        let source = stateIndex
        if storage.finalFlags[source] {
            return .refused(Refusal(state: storage.states[source], event: event, reason: .finalState))
        }
        var guardsFailed = false
        var index = storage.ruleStart[source]
        let end = storage.ruleStart[source &+ 1]
        while index < end {
            if storage.rules[index].event == event {
                if let condition = storage.rules[index].guard, !condition.condition(context, event) {
                    guardsFailed = true
                } else {
                    return take(ruleAt: index, event: event)
                }
            }
            index &+= 1
        }
        return .refused(refusal(of: event, in: source, guardsFailed: guardsFailed))
    }

    @inlinable
    mutating func take(ruleAt index: Int, event: Event) -> Outcome<State, Event> {
        let source = stateIndex
        switch storage.rules[index].kind {
        case 1:
            for action in storage.rules[index].actions { action.body(&context, event) }
            let state = storage.states[source]
            return .transitioned(Transition(source: state, target: state, trigger: .event(event), isInternal: true))
        case 2:
            return .refused(
                Refusal(
                    state: storage.states[source], event: event,
                    reason: .rejected(storage.rules[index].rejection ?? "")))
        default:
            let target = storage.rules[index].targetIndex
            enter(target, from: source, actions: storage.rules[index].actions, event: event)
            return .transitioned(
                Transition(
                    source: storage.states[source], target: storage.states[target], trigger: .event(event),
                    isInternal: false))
        }
    }

    @inlinable
    mutating func enter(_ target: Int, from source: Int, actions: [Action<Context, Event>], event: Event?) {
        for action in storage.exitActions[source] { action.body(&context, event) }
        for action in actions { action.body(&context, event) }
        stateIndex = target
        epoch &+= 1
        for action in storage.entryActions[target] { action.body(&context, event) }
    }

    @usableFromInline
    func refusal(of event: Event, in source: Int, guardsFailed: Bool) -> Refusal<State, Event> {
        guard guardsFailed else {
            return Refusal(state: storage.states[source], event: event, reason: .noTransition)
        }
        let names = storage.rules[storage.ruleStart[source]..<storage.ruleStart[source + 1]]
            .filter { $0.event == event }
            .compactMap { $0.guard?.name }
        return Refusal(state: storage.states[source], event: event, reason: .guardFailed(names))
    }
}

extension StateMachineDefinition {
    init(storage: DefinitionStorage<State, Event, Context>) {
        self.storage = storage
    }
}
