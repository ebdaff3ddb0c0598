internal import StatechartSemantics

/// A definition compiled once into what `StateMachine.send` reads: one record per rule
/// (``CompiledRule``) and per state (``CompiledState``), one pool of actions, and the plans
/// derived from them (``FlatPlan`` for a flat machine, ``ChartPlans`` for a statechart). Laid out
/// flat, so that a step touches no reference count; every buffer is made by, and freed with, the
/// definition's ``BufferArena``.
@usableFromInline
struct CompiledDefinition<State, Event, Context>: Sendable {
    @usableFromInline let states: FixedBuffer<State>
    @usableFromInline let stateRecords: FixedBuffer<CompiledState>
    /// Every rule, numbered as `DefinitionStorage.rules`.
    @usableFromInline let rules: FixedBuffer<CompiledRule<Event, Context>>
    /// Per state, the rules (indices into `rules`) an event is offered to: see `CompiledState`.
    @usableFromInline let selection: FixedBuffer<Int>
    /// Every action of the definition: rules', entry and exit actions, each a range of this pool.
    @usableFromInline let actions: FixedBuffer<Unmanaged<Box<ActionBody<Context, Event>>>>
    /// The eventless and done rules of each state (indices into `rules`): see `CompiledState`.
    @usableFromInline let triggerless: FixedBuffer<Int>
    /// The delay of each timer, numbered as `CompiledState.timerStart` numbers them.
    @usableFromInline let timerDelays: FixedBuffer<TimerDelay<Context>>
    /// Which path an event with a slot takes: `.flat` only when `flat.isEnabled`, `.planned` only
    /// when `planned.isEnabled` (both imply `slots.isDirect`).
    @usableFromInline let mode: DispatchMode
    /// Each event's index among the events rules name, read from its byte where it has one.
    @usableFromInline let slots: EventSlots
    /// The indexed form of a flat machine (disabled for a statechart or events without slots).
    @usableFromInline let flat: FlatPlan<Context, Event>
    /// The planned microsteps of a statechart (disabled for a flat machine, events without
    /// slots, or rules on event kinds).
    @usableFromInline let planned: ChartPlans<Context, Event>

    init(
        states: [State], nodes: [StateNode<State, Event, Context>], rules: [TransitionRule<State, Event, Context>],
        places: [RulePlace], events: [Event], chart: ChartTables, hasKinds: Bool, arena: BufferArena
    ) where State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable {
        var actions: [Unmanaged<Box<ActionBody<Context, Event>>>] = []
        func pool(_ list: [Action<Context, Event>]) -> Range<Int> {
            let start = actions.count
            actions += list.map { arena.box($0.body) }
            return start..<actions.count
        }
        let ruleActions = rules.map { pool($0.actions) }
        let entries = nodes.map { pool($0.entry) }
        let exits = nodes.map { pool($0.exit) }

        var slotOf: [Event: Int] = [:]
        for (slot, event) in events.enumerated() { slotOf[event] = slot }
        let records = rules.indices.map { index in
            let rule = rules[index]
            let place = places[index]
            let plan =
                rule.ruleKind == .leaves
                ? chart.plan(source: place.source, target: place.target, keepsSource: rule.keepsSource)
                : (domain: nil, entry: StateSet(count: chart.shape.count), isDynamic: false)
            return CompiledRule<Event, Context>(
                source: place.source, target: place.target, actionStart: ruleActions[index].lowerBound,
                actionEnd: ruleActions[index].upperBound, guardBody: rule.guard.map { arena.box($0.body) },
                rejection: rule.rejection ?? "", entry: plan.entry, domain: plan.domain,
                slot: rule.event.flatMap { slotOf[$0] }, kindIndex: place.kindIndex, kind: rule.ruleKind,
                isDynamic: plan.isDynamic, event: rule.event)
        }

        // A state's selection: its own rules on events, then its ancestors', innermost first.
        var selection: [Int] = []
        var selectionRanges: [Range<Int>] = []
        for state in nodes.indices {
            let start = selection.count
            for candidate in chart.shape.candidateStates(from: state) { selection += nodes[candidate].eventRules }
            selectionRanges.append(start..<selection.count)
        }
        let eventless = nodes.map(\.eventlessRules)
        let done = nodes.map(\.doneRules)
        let triggerless = Array(eventless.joined()) + Array(done.joined())
        var triggerlessStart = 0
        var doneStart = eventless.joined().count
        var timerStart = 0
        var stateRecords: [CompiledState] = []
        for (index, node) in nodes.enumerated() {
            stateRecords.append(
                CompiledState(
                    isFinal: node.isFinal, hasActivity: !node.timers.isEmpty || !node.effects.isEmpty,
                    hasEffects: !node.effects.isEmpty, selectionStart: selectionRanges[index].lowerBound,
                    selectionEnd: selectionRanges[index].upperBound, entryStart: entries[index].lowerBound,
                    entryEnd: entries[index].upperBound, exitStart: exits[index].lowerBound,
                    exitEnd: exits[index].upperBound, eventlessStart: triggerlessStart,
                    eventlessEnd: triggerlessStart + node.eventlessRules.count, doneStart: doneStart,
                    doneEnd: doneStart + node.doneRules.count, timerStart: timerStart,
                    timerEnd: timerStart + node.timers.count))
            triggerlessStart += node.eventlessRules.count
            doneStart += node.doneRules.count
            timerStart += node.timers.count
        }

        let slots = EventSlots(events: events, arena: arena)
        let parts = CompiledParts(stateRecords: stateRecords, rules: records, selection: selection, actions: actions)
        self.states = arena.buffer(states)
        self.stateRecords = arena.buffer(stateRecords)
        self.rules = arena.buffer(records)
        self.selection = arena.buffer(selection)
        self.actions = arena.buffer(actions)
        self.triggerless = arena.buffer(triggerless)
        self.timerDelays = arena.buffer(nodes.flatMap { $0.timers.map(\.delay) })
        self.slots = slots
        self.flat = FlatPlan(
            isEnabled: slots.isDirect && !chart.isChart, slotCount: slots.count, parts: parts, arena: arena)
        self.planned = ChartPlans(
            isEnabled: slots.isDirect && chart.isChart && !hasKinds, chart: chart, slotCount: slots.count,
            parts: parts, arena: arena)
        self.mode = flat.isEnabled ? .flat : planned.isEnabled ? .planned : .general
    }
}
