public import StatechartSemantics

// One microstep (SCXML's `microstep`): exit the union of the exit sets innermost first,
// recording history; run the transitions' actions in order; enter the union of the entry sets,
// computed from the history just recorded, outermost first, queueing done events for final
// states. And the selection of the rules without an event: eventless, and a state's done rules.

extension StateMachine {
    @inlinable
    mutating func microstep(
        rules: UnsafeMutableBufferPointer<Int>, count: Int, event: Event?, trigger: Trigger<Event>,
        onTransition: ((Transition<State, Event>) -> Void)?
    ) {
        if count == 1 {
            let rule = rules[0]
            exitStates(exitSet(rule: rule), event: event)
            runChartActions(
                storage.engine.actions, from: storage.engine.rules[rule].actionStart,
                to: storage.engine.rules[rule].actionEnd, event: event)
            enterStates(entrySet(rule: rule), event: event)
            if let onTransition { onTransition(transition(ofRule: rule, trigger: trigger)) }
            return
        }
        var exits = StateSet(count: storage.chart.shape.count)
        for position in 0..<count { exits.formUnion(exitSet(rule: rules[position])) }
        exitStates(exits, event: event)
        for position in 0..<count {
            let rule = rules[position]
            runChartActions(
                storage.engine.actions, from: storage.engine.rules[rule].actionStart,
                to: storage.engine.rules[rule].actionEnd, event: event)
        }
        // After the exits, which record the history that a transition to a history state enters.
        var entries = StateSet(count: storage.chart.shape.count)
        for position in 0..<count { entries.formUnion(entrySet(rule: rules[position])) }
        enterStates(entries, event: event)
        if let onTransition {
            for position in 0..<count { onTransition(transition(ofRule: rules[position], trigger: trigger)) }
        }
    }

    /// Exits `exits` in reverse document order, after recording the history of each state that
    /// has a history state.
    @inlinable
    mutating func exitStates(_ exits: StateSet, event: Event?) {
        run.isOffPlan = false
        if exits.intersects(storage.chart.shape.historyOwners) {
            exits.intersection(storage.chart.shape.historyOwners).forEachAscending { owner in
                for history in storage.chart.shape.nodes[owner].historyChildren {
                    run.history[history] = storage.chart.shape.historyValue(history, owner: owner, active: run.active)
                    run.hasHistory[history] = true
                }
            }
        }
        ChartShape.forEachExit(exits) { state in
            runChartActions(
                storage.engine.actions, from: storage.engine.stateRecords[state].exitStart,
                to: storage.engine.stateRecords[state].exitEnd, event: event)
            run.active.remove(state)
        }
    }

    /// Enters `entries` in document order; a final state completes its parent (and a parallel
    /// grandparent whose regions are all complete), or at the top level ends the machine.
    @inlinable
    mutating func enterStates(_ entries: StateSet, event: Event?) {
        run.isOffPlan = false
        ChartShape.forEachEntry(entries) { state in
            run.active.insert(state)
            epoch &+= 1
            run.stamps[state] = epoch
            runChartActions(
                storage.engine.actions, from: storage.engine.stateRecords[state].entryStart,
                to: storage.engine.stateRecords[state].entryEnd, event: event)
            if storage.chart.shape.nodes[state].isFinal { complete(finalState: state) }
        }
        stateIndex = run.active.intersection(storage.chart.shape.atomic).first ?? stateIndex
    }

    @inlinable
    mutating func complete(finalState state: Int) {
        guard let parent = storage.chart.shape.nodes[state].parent else {
            run.isDone = true
            return
        }
        run.queue.append(.done(parent))
        if let grandparent = storage.chart.shape.nodes[parent].parent,
            storage.chart.shape.nodes[grandparent].kind == .parallel,
            storage.chart.shape.nodes[grandparent].children.allSatisfy({ isInFinalState($0) })
        {
            run.queue.append(.done(grandparent))
        }
    }

    /// SCXML's `isInFinalState`.
    @inlinable
    mutating func isInFinalState(_ state: Int) -> Bool {
        let node = storage.chart.shape.nodes[state]
        switch node.kind {
        case .compound:
            return node.children.contains { storage.chart.shape.nodes[$0].isFinal && run.active.contains($0) }
        case .parallel: return node.children.allSatisfy({ isInFinalState($0) })
        case .atomic: return node.isFinal && run.active.contains(state)
        case .history: return false
        }
    }

    /// Runs actions `start ..< end` of `actions`: a raise puts its event on the internal queue.
    @inlinable
    mutating func runChartActions(
        _ actions: FixedBuffer<Unmanaged<Box<ActionBody<Context, Event>>>>, from start: Int, to end: Int,
        event: Event?
    ) {
        var index = start
        while index < end {
            // The raised event is queued outside the borrow of the action, which then needs no copy.
            var raised: Event?
            actions[index]._withUnsafeGuaranteedRef { box in
                if case .raise(let make) = box.value {
                    raised = make(context, event)
                } else {
                    box.value.run(&context, event)
                }
            }
            if let raised { run.queue.append(.raised(raised)) }
            index &+= 1
        }
    }

    /// Whether the guard of rule `rule` holds on a step without an event.
    @inlinable
    func holds(_ rule: Int) -> Bool {
        storage.engine.rules[rule].holds(context, nil as Event?)
    }

    /// SCXML's `selectEventlessTransitions`.
    @inlinable
    mutating func selectEventless(into buffer: UnsafeMutableBufferPointer<Int>) -> Int {
        // No active state with an eventless rule, the usual case: nothing to select.
        if !run.active.intersects(storage.chart.eventlessOwners) { return 0 }
        var selection = Selection(run.active, in: storage.chart.shape, into: buffer)
        leaves: while let leaf = selection.nextLeaf() {
            var state: Int? = leaf
            while let current = state {
                var index = storage.engine.stateRecords[current].eventlessStart
                while index < storage.engine.stateRecords[current].eventlessEnd {
                    let rule = storage.engine.triggerless[index]
                    if holds(rule) {
                        selection.add(rule, refuses: false)
                        continue leaves
                    }
                    index &+= 1
                }
                state = storage.chart.shape.nodes[current].parent
            }
        }
        return selection.count
    }

    /// The first done rule of `state` whose guard holds, into `buffer[0]`, when `state` is still
    /// active: how many rules were selected (0 or 1).
    @inlinable
    mutating func selectDone(_ state: Int, into buffer: UnsafeMutableBufferPointer<Int>) -> Int {
        guard run.active.contains(state) else { return 0 }
        var index = storage.engine.stateRecords[state].doneStart
        while index < storage.engine.stateRecords[state].doneEnd {
            let rule = storage.engine.triggerless[index]
            if holds(rule) {
                buffer[0] = rule
                return 1
            }
            index &+= 1
        }
        return 0
    }
}
