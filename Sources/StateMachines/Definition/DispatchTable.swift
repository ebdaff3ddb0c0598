/// A fixed array in memory that its owner frees: reading an element retains nothing.
@usableFromInline
struct FixedBuffer<Element>: @unchecked Sendable {
    @usableFromInline
    let base: UnsafeMutablePointer<Element>
    @usableFromInline
    let count: Int

    init(_ elements: [Element]) {
        count = elements.count
        base = .allocate(capacity: Swift.max(count, 1))
        base.initialize(from: elements, count: count)
    }

    @inlinable
    subscript(index: Int) -> Element {
        unsafeAddress { UnsafePointer(base + index) }
    }

    func free() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}

/// What `StateMachine.send` reads, laid out flat so that a step touches no reference count:
/// the rules of state `s` are `ruleStart[s] ..< ruleStart[s + 1]`; the actions of rule `r` are
/// `actions[actionStart[r] ..< actionStart[r + 1]]`; the entry and exit actions of state `s`
/// are `stateActions[entryStart[s] ..< entryStart[s + 1]]` and likewise with `exitStart`.
@usableFromInline
struct DispatchTable<State, Event, Context>: Sendable {
    @usableFromInline let states: FixedBuffer<State>
    @usableFromInline let isFinal: FixedBuffer<Bool>
    @usableFromInline let ruleStart: FixedBuffer<Int>
    /// The event of each rule on an exact event; a rule on an event kind (see `ruleKindIndex`)
    /// holds another rule's event and is never compared. Not optional, so that the flat walk
    /// compares events directly.
    @usableFromInline let ruleEvent: FixedBuffer<Event>
    @usableFromInline let ruleKindIndex: FixedBuffer<Int>
    /// The index in `DefinitionStorage.rules` of each rule.
    @usableFromInline let ruleOriginal: FixedBuffer<Int>
    /// 0: leaves the state, 1: internal, 2: refuses.
    @usableFromInline let ruleKind: FixedBuffer<UInt8>
    @usableFromInline let ruleTarget: FixedBuffer<Int>
    @usableFromInline let ruleRejection: FixedBuffer<String>
    /// Whether rule `r` has a guard; when it does, `ruleGuard[r]` holds it.
    @usableFromInline let ruleHasGuard: FixedBuffer<Bool>
    @usableFromInline let ruleGuard: FixedBuffer<Unmanaged<Box<GuardBody<Context, Event>>>>
    @usableFromInline let actionStart: FixedBuffer<Int>
    @usableFromInline let actions: FixedBuffer<Unmanaged<Box<ActionBody<Context, Event>>>>
    /// The actions of `DefinitionStorage.rules[r]` are `ruleActions[ruleActionStart[r] ..<
    /// ruleActionStart[r + 1]]`: what the statechart algorithm runs.
    @usableFromInline let ruleActionStart: FixedBuffer<Int>
    @usableFromInline let ruleActions: FixedBuffer<Unmanaged<Box<ActionBody<Context, Event>>>>
    /// Whether `DefinitionStorage.rules[r]` has a guard; when it does, `allRuleGuard[r]` holds it.
    @usableFromInline let allRuleHasGuard: FixedBuffer<Bool>
    @usableFromInline let allRuleGuard: FixedBuffer<Unmanaged<Box<GuardBody<Context, Event>>>>
    /// The eventless rules of state `s` are `triggerless[eventlessStart[s] ..< eventlessStart[s + 1]]`
    /// and its done rules `triggerless[doneStart[s] ..< doneStart[s + 1]]` (indices into
    /// `DefinitionStorage.rules`), in the order written.
    @usableFromInline let eventlessStart: FixedBuffer<Int>
    @usableFromInline let doneStart: FixedBuffer<Int>
    @usableFromInline let triggerless: FixedBuffer<Int>
    @usableFromInline let entryStart: FixedBuffer<Int>
    @usableFromInline let exitStart: FixedBuffer<Int>
    @usableFromInline let stateActions: FixedBuffer<Unmanaged<Box<ActionBody<Context, Event>>>>
    /// Owns every box the unmanaged references above point to.
    let boxes: [any Sendable]
    /// The timers of state `s` are numbered `timerStart[s] ..< timerStart[s + 1]`.
    @usableFromInline let timerStart: FixedBuffer<Int>
    /// The delay of each timer, numbered as `timerStart` numbers them.
    @usableFromInline let timerDelays: FixedBuffer<TimerDelay<Context>>
    /// Whether state `s` has timers or effects, so that entering or leaving it needs the runtime.
    @usableFromInline let hasActivity: FixedBuffer<Bool>
    @usableFromInline let hasEffects: FixedBuffer<Bool>
    /// Each event's index among the events rules name, read from its byte where it has one.
    @usableFromInline let slots: EventSlots
    /// The indexed form of a flat machine (disabled for a statechart or events without slots).
    @usableFromInline let flat: FlatPlan<Context, Event>
    /// The planned microsteps of a statechart (disabled for a flat machine, events without
    /// slots, or rules on event kinds).
    @usableFromInline let planned: ChartPlans<Context, Event>

    init(
        states: [State], nodes: [StateNode<State, Event, Context>], rules: [TransitionRule<State, Event, Context>],
        ruleStart: [Int], original: [Int], allRules: [TransitionRule<State, Event, Context>], events: [Event],
        chart: ChartTables, hasKinds: Bool
    ) where State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable {
        let isFinal = nodes.map(\.isFinal)
        let entry = nodes.map(\.entry)
        let exit = nodes.map(\.exit)
        self.states = FixedBuffer(states)
        self.isFinal = FixedBuffer(isFinal)
        self.ruleStart = FixedBuffer(ruleStart)
        if let filler = rules.lazy.compactMap(\.event).first {
            self.ruleEvent = FixedBuffer(rules.map { $0.event ?? filler })
        } else {
            self.ruleEvent = FixedBuffer([])
        }
        self.ruleKindIndex = FixedBuffer(rules.map(\.kindIndex))
        self.ruleOriginal = FixedBuffer(original)
        self.ruleKind = FixedBuffer(rules.map(\.step))
        self.ruleTarget = FixedBuffer(rules.map(\.targetIndex))
        self.ruleRejection = FixedBuffer(rules.map { $0.rejection ?? "" })
        var boxes: [any Sendable] = []
        func box<Value>(_ value: Value) -> Unmanaged<Box<Value>> {
            let box = Box(value)
            boxes.append(box)
            return Unmanaged.passUnretained(box)
        }
        self.ruleHasGuard = FixedBuffer(rules.map { $0.guard != nil })
        self.ruleGuard = FixedBuffer(rules.map { box($0.guard?.body ?? .always) })
        let ruleActions = rules.map { $0.actions.map { box($0.body) } }
        self.actionStart = FixedBuffer(Self.starts(rules.map(\.actions.count)))
        self.actions = FixedBuffer(ruleActions.flatMap { $0 })
        self.ruleActionStart = FixedBuffer(Self.starts(allRules.map(\.actions.count)))
        self.allRuleHasGuard = FixedBuffer(allRules.map { $0.guard != nil })
        self.allRuleGuard = FixedBuffer(allRules.map { box($0.guard?.body ?? .always) })
        let eventless = nodes.map(\.eventlessRules)
        let done = nodes.map(\.doneRules)
        self.eventlessStart = FixedBuffer(Self.starts(eventless.map(\.count)))
        self.doneStart = FixedBuffer(Self.starts(done.map(\.count)).map { $0 + eventless.joined().count })
        self.triggerless = FixedBuffer(Array(eventless.joined()) + Array(done.joined()))
        let allRuleActions = allRules.map { $0.actions.map { box($0.body) } }
        self.ruleActions = FixedBuffer(allRuleActions.flatMap { $0 })
        self.entryStart = FixedBuffer(Self.starts(entry.map(\.count)))
        self.exitStart = FixedBuffer(Self.starts(exit.map(\.count)).map { $0 + entry.joined().count })
        let entryActions = entry.map { $0.map { box($0.body) } }
        let exitActions = exit.map { $0.map { box($0.body) } }
        self.stateActions = FixedBuffer(entryActions.flatMap { $0 } + exitActions.flatMap { $0 })
        self.timerStart = FixedBuffer(Self.starts(nodes.map(\.timers.count)))
        self.timerDelays = FixedBuffer(nodes.flatMap { $0.timers.map(\.delay) })
        self.hasActivity = FixedBuffer(nodes.map { !$0.timers.isEmpty || !$0.effects.isEmpty })
        self.hasEffects = FixedBuffer(nodes.map { !$0.effects.isEmpty })
        self.boxes = boxes
        let slots = EventSlots(events: events)
        self.slots = slots
        let ruleSlots = rules.map { rule in rule.event.flatMap { events.firstIndex(of: $0) } ?? -1 }
        self.flat = FlatPlan(
            isEnabled: slots.isDirect && !chart.isChart, slotCount: slots.count, isFinal: isFinal,
            ruleStart: ruleStart, ruleSlots: ruleSlots, ruleKinds: rules.map(\.step),
            ruleTargets: rules.map(\.targetIndex), ruleHasGuard: rules.map { $0.guard != nil },
            ruleActions: ruleActions, entryActions: entryActions, exitActions: exitActions)
        self.planned = ChartPlans(
            isEnabled: slots.isDirect && chart.isChart && !hasKinds,
            source: ChartPlans.Source(
                chart: chart, slotCount: slots.count, selectionStart: ruleStart, selectionOriginal: original,
                selectionSlot: ruleSlots, selectionGuarded: rules.map { $0.guard != nil },
                selectionStep: rules.map(\.step), ruleActions: allRuleActions, entryActions: entryActions,
                exitActions: exitActions, hasActivity: nodes.map { !$0.timers.isEmpty || !$0.effects.isEmpty }))
    }

    private static func starts(_ counts: [Int]) -> [Int] {
        var starts = [0]
        for count in counts { starts.append(starts[starts.count - 1] + count) }
        return starts
    }

    func free() {
        states.free()
        isFinal.free()
        ruleStart.free()
        ruleEvent.free()
        ruleKindIndex.free()
        ruleOriginal.free()
        ruleKind.free()
        ruleTarget.free()
        ruleRejection.free()
        ruleHasGuard.free()
        ruleGuard.free()
        actionStart.free()
        actions.free()
        ruleActionStart.free()
        ruleActions.free()
        allRuleHasGuard.free()
        allRuleGuard.free()
        eventlessStart.free()
        doneStart.free()
        triggerless.free()
        entryStart.free()
        exitStart.free()
        stateActions.free()
        timerStart.free()
        timerDelays.free()
        hasActivity.free()
        hasEffects.free()
        slots.free()
        flat.free()
        planned.free()
    }
}

/// An immutable value on the heap, so that the hot path can reach it through an unmanaged
/// reference and call a closure in it without retaining the closure's context.
@usableFromInline
final class Box<Value>: @unchecked Sendable {
    @usableFromInline let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
