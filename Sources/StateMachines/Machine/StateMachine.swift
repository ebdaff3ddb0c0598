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
        runActions(
            from: storage.table.entryStart[stateIndex], to: storage.table.entryStart[stateIndex + 1], event: nil,
            stateActions: true)
    }

    /// The definition this machine runs.
    public var definition: StateMachineDefinition<State, Event, Context> { StateMachineDefinition(storage: storage) }

    /// The current state.
    @inlinable
    public var state: State { storage.table.states[stateIndex] }

    /// Whether the machine is in a final state (for a statechart: a top-level final state).
    @inlinable
    public var isFinished: Bool { storage.chart.isChart ? run.isDone : storage.table.isFinal[stateIndex] }

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
        // A flat machine whose events are one byte each: index the state's rules for the event.
        if MemoryLayout<Event>.size == 1 && storage.table.flat.isEnabled {
            let slot = storage.table.slots.slot(of: event)
            if slot >= 0 {
                var rule = Int(storage.table.flat.first[stateIndex &* storage.table.flat.slotCount &+ slot])
                if rule >= 0 {
                    repeat {
                        let step = storage.table.flat.steps[rule]
                        if !step.hasGuard
                            || storage.table.ruleGuard[rule]._withUnsafeGuaranteedRef({ $0.value.holds(context, event) }
                            )
                        {
                            return take(step, rule: rule, event: event)
                        }
                        rule = Int(step.next)
                    } while rule >= 0
                    return .refused(refusal(of: event, in: stateIndex, guardsFailed: true))
                }
            }
        }
        return sendScanning(event)
    }

    /// Takes a rule of a flat machine found by its event slot.
    @inlinable
    @inline(__always)
    mutating func take(_ step: FlatStep, rule: Int, event: Event) -> Outcome<State, Event> {
        let source = stateIndex
        switch step.kind {
        case 0:
            runSteps(from: Int(step.start), to: Int(step.split), event: event)
            let target = Int(step.target)
            stateIndex = target
            epoch &+= 1
            runSteps(from: Int(step.split), to: Int(step.end), event: event)
            return .transitioned(
                Transition(
                    source: storage.table.states[source], target: storage.table.states[target], trigger: .event(event),
                    isInternal: false))
        case 1:
            runSteps(from: Int(step.start), to: Int(step.end), event: event)
            let state = storage.table.states[source]
            return .transitioned(Transition(source: state, target: state, trigger: .event(event), isInternal: true))
        default:
            return .refused(rejection(ofRuleAt: rule, event: event))
        }
    }

    /// Runs actions `start ..< end` of the flat plan.
    @inlinable
    @inline(__always)
    mutating func runSteps(from start: Int, to end: Int, event: Event) {
        var index = start
        while index < end {
            storage.table.flat.actions[index]._withUnsafeGuaranteedRef { $0.value.run(&context, event) }
            index &+= 1
        }
    }

    /// `send` for everything the indexed path does not take: statecharts, events without a slot,
    /// events no rule names, final states. Kept out of line so that the indexed path stays small.
    @inlinable
    @inline(never)
    mutating func sendScanning(_ event: Event) -> Outcome<State, Event> {
        if storage.chart.isChart { return sendStatechart(event) }
        let source = stateIndex
        if storage.table.isFinal[source] {
            return .refused(Refusal(state: storage.table.states[source], event: event, reason: .finalState))
        }
        var guardsFailed = false
        var index = storage.table.ruleStart[source]
        let end = storage.table.ruleStart[source &+ 1]
        while index < end {
            if storage.table.ruleEvent[index] == event {
                if !storage.table.ruleHasGuard[index]
                    || storage.table.ruleGuard[index]._withUnsafeGuaranteedRef({ $0.value.holds(context, event) })
                {
                    return take(ruleAt: index, event: event)
                }
                guardsFailed = true
            }
            index &+= 1
        }
        return .refused(refusal(of: event, in: source, guardsFailed: guardsFailed))
    }

    @inlinable
    @inline(__always)
    mutating func take(ruleAt index: Int, event: Event) -> Outcome<State, Event> {
        let source = stateIndex
        switch storage.table.ruleKind[index] {
        case 1:
            runActions(from: storage.table.actionStart[index], to: storage.table.actionStart[index &+ 1], event: event)
            let state = storage.table.states[source]
            return .transitioned(Transition(source: state, target: state, trigger: .event(event), isInternal: true))
        case 2:
            return .refused(rejection(ofRuleAt: index, event: event))
        default:
            let target = storage.table.ruleTarget[index]
            let exit = (storage.table.exitStart[source], storage.table.exitStart[source &+ 1])
            runActions(from: exit.0, to: exit.1, event: event, stateActions: true)
            runActions(from: storage.table.actionStart[index], to: storage.table.actionStart[index &+ 1], event: event)
            stateIndex = target
            epoch &+= 1
            runActions(
                from: storage.table.entryStart[target], to: storage.table.entryStart[target &+ 1], event: event,
                stateActions: true)
            return .transitioned(
                Transition(
                    source: storage.table.states[source], target: storage.table.states[target], trigger: .event(event),
                    isInternal: false))
        }
    }

    /// Runs rule actions (or, with `stateActions`, entry and exit actions) `start ..< end`.
    @inlinable
    @inline(__always)
    mutating func runActions(from start: Int, to end: Int, event: Event?, stateActions: Bool = false) {
        var index = start
        while index < end {
            if stateActions {
                storage.table.stateActions[index]._withUnsafeGuaranteedRef { $0.value.run(&context, event) }
            } else {
                storage.table.actions[index]._withUnsafeGuaranteedRef { $0.value.run(&context, event) }
            }
            index &+= 1
        }
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
        if storage.chart.isChart {
            return withoutActuallyEscaping(onTransition) { sendChart(event, onTransition: $0) }
        }
        let outcome = send(event)
        if let transition = outcome.transition { onTransition(transition) }
        return outcome
    }

    /// Leaves the current state for `target` by a timer: exit actions, `actions`, entry actions.
    mutating func enter(_ target: Int, actions: [Action<Context, Event>]) {
        runActions(
            from: storage.table.exitStart[stateIndex], to: storage.table.exitStart[stateIndex + 1], event: nil,
            stateActions: true)
        for action in actions { action.body.run(&context, nil) }
        stateIndex = target
        epoch &+= 1
        runActions(
            from: storage.table.entryStart[target], to: storage.table.entryStart[target + 1], event: nil,
            stateActions: true)
    }

    @inlinable
    func rejection(ofRuleAt index: Int, event: Event) -> Refusal<State, Event> {
        Refusal(state: state, event: event, reason: .rejected(storage.table.ruleRejection[index]))
    }

    @usableFromInline
    func refusal(of event: Event, in source: Int, guardsFailed: Bool) -> Refusal<State, Event> {
        guard guardsFailed else {
            return Refusal(state: storage.states[source], event: event, reason: .noTransition)
        }
        let names = storage.selection[storage.ruleStart[source]..<storage.ruleStart[source + 1]]
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
