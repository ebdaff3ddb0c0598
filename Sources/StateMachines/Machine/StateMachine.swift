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

    /// What a statechart keeps besides its first leaf: the whole configuration, history, entry
    /// stamps and the internal queue. Empty for a flat machine.
    @usableFromInline
    var run: ChartRun<Event>

    /// Creates a machine in the definition's initial state and runs that state's entry actions
    /// (for a statechart: enters the initial configuration, then takes the eventless transitions
    /// and raised events that follow).
    public init(_ definition: StateMachineDefinition<State, Event, Context>, context: Context) {
        self.storage = definition.storage
        self.stateIndex = definition.storage.initialIndex
        self.context = context
        self.run = ChartRun(chart: definition.storage.chart)
        if storage.chart.isChart {
            startChart()
            return
        }
        let initial = storage.engine.stateRecords[stateIndex]
        runActions(from: initial.entryStart, to: initial.entryEnd, event: nil)
    }

    /// The definition this machine runs.
    public var definition: StateMachineDefinition<State, Event, Context> { StateMachineDefinition(storage: storage) }

    /// The current state.
    @inlinable
    public var state: State { storage.engine.states[stateIndex] }

    /// Whether the machine is in a final state (for a statechart: a top-level final state).
    @inlinable
    public var isFinished: Bool { storage.chart.isChart ? run.isDone : storage.engine.stateRecords[stateIndex].isFinal }

    /// Sends `event`: takes the first transition for it whose guard holds, running exit
    /// actions, the transition's actions and entry actions, in that order.
    ///
    /// In a statechart, every active leaf offers the event to itself and then to its ancestors
    /// (the innermost matching rule wins); the transitions selected in each parallel region are
    /// taken together, conflicts resolved as SCXML resolves them; states are exited innermost
    /// first and entered outermost first. Then eventless transitions and raised events are taken
    /// until the configuration is stable (run to completion).
    ///
    /// - Returns: the first transition taken, or a refusal that says why there was none.
    /// - Complexity: O(*r*), where *r* is the number of rules of the current state. No
    ///   allocation and no reference counting, unless an action or guard does its own.
    @inlinable
    @inline(__always)
    @discardableResult
    public mutating func send(_ event: Event) -> Outcome<State, Event> {
        dispatch(event, onTransition: nil)
    }

    /// Sends `event` and calls `onTransition` with every transition it causes, in order: those
    /// of the event itself (one per region), then eventless, raised and done steps.
    ///
    /// ```swift
    /// machine.send(.start) { print($0) }   // idle → busy on start, busy → checking on always
    /// ```
    @discardableResult
    public mutating func send(
        _ event: Event, onTransition: (Transition<State, Event>) -> Void
    ) -> Outcome<State, Event> {
        withoutActuallyEscaping(onTransition) { dispatch(event, onTransition: $0) }
    }

    /// Leaves the current state for `target` by a timer: exit actions, `actions`, entry actions.
    mutating func enter(_ target: Int, actions: [Action<Context, Event>]) {
        let source = storage.engine.stateRecords[stateIndex]
        runActions(from: source.exitStart, to: source.exitEnd, event: nil)
        for action in actions { action.body.run(&context, nil) }
        stateIndex = target
        epoch &+= 1
        let entered = storage.engine.stateRecords[target]
        runActions(from: entered.entryStart, to: entered.entryEnd, event: nil)
    }

    @inlinable
    func rejection(ofRule rule: Int, event: Event) -> Refusal<State, Event> {
        Refusal(state: state, event: event, reason: .rejected(storage.engine.rules[rule].rejection))
    }

    @usableFromInline
    func refusal(of event: Event, in source: Int, guardsFailed: Bool) -> Refusal<State, Event> {
        guard guardsFailed else {
            return Refusal(state: storage.states[source], event: event, reason: .noTransition)
        }
        let record = storage.engine.stateRecords[source]
        let names = (record.selectionStart..<record.selectionEnd)
            .map { storage.rules[storage.engine.selection[$0]] }
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
