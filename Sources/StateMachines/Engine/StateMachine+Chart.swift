public import StatechartSemantics

// The statechart algorithm of W3C SCXML 1.0, Appendix D, on the compiled tables: selection of the
// rules an event takes, in document order (each active leaf, then its ancestors), why none is
// taken, conflict resolution, and each rule's exit and entry sets. `step` (`StateMachine+Step.swift`)
// puts them together into a microstep.

extension StateMachine {
    /// Whether `event` would take a transition now, without running any action (guards run).
    public func can(_ event: Event) -> Bool {
        if isFinished { return false }
        guard storage.chart.isChart else {
            let record = storage.engine.stateRecords[stateIndex]
            for index in record.selectionStart..<record.selectionEnd {
                let rule = storage.engine.selection[index]
                if storage.engine.rules[rule].event == event && storage.engine.rules[rule].holds(context, event) {
                    return storage.engine.rules[rule].kind != .refuses
                }
            }
            return false
        }
        var copy = self
        let kind = storage.kindReader?.read(event)
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: Swift.max(1, storage.chart.shape.count)) {
            copy.selectRules(for: event, kind: kind, into: $0).count > 0
        }
    }

    /// The events the definition names that ``can(_:)`` would take now, in order of first mention.
    public var acceptedEvents: [Event] { storage.events.filter(can) }

    /// Offers `event` to each active leaf in document order, then to its ancestors: the first
    /// rule whose guard holds is selected (SCXML's `selectTransitions`), once per rule.
    /// Mutating only so that a call from a step borrows the machine instead of copying it.
    @inlinable
    mutating func selectRules(
        for event: Event, kind: Int?, into buffer: UnsafeMutableBufferPointer<Int>
    ) -> (count: Int, rejection: Int?, guardsFailed: Bool) {
        var selection = Selection(run.active, in: storage.chart.shape, into: buffer)
        var guardsFailed = false
        leaves: while let leaf = selection.nextLeaf() {
            var index = storage.engine.stateRecords[leaf].selectionStart
            let end = storage.engine.stateRecords[leaf].selectionEnd
            while index < end {
                let rule = storage.engine.selection[index]
                let matches = storage.engine.rules[rule].matches(event, kind: kind)
                if matches && storage.engine.rules[rule].holds(context, event) {
                    selection.add(rule, refuses: storage.engine.rules[rule].kind == .refuses)
                    continue leaves
                }
                if matches { guardsFailed = true }
                index &+= 1
            }
        }
        return (selection.count, selection.rejection, guardsFailed)
    }

    /// Why no transition was taken: a `Refuse` (`rejection`, a rule index), guards that failed, or
    /// nothing for the event.
    @inlinable
    mutating func chartRefusal(
        of event: Event, kind: Int?, rejection: Int?, guardsFailed: Bool
    ) -> Refusal<State, Event> {
        if let rejection {
            return Refusal(state: state, event: event, reason: .rejected(storage.engine.rules[rejection].rejection))
        }
        guard guardsFailed else { return Refusal(state: state, event: event, reason: .noTransition) }
        var names: [String] = []
        run.active.intersection(storage.chart.shape.atomic).forEachAscending { leaf in
            let record = storage.engine.stateRecords[leaf]
            for index in record.selectionStart..<record.selectionEnd {
                let rule = storage.engine.selection[index]
                guard storage.engine.rules[rule].matches(event, kind: kind) else { continue }
                if let name = storage.rules[rule].guard?.name, !names.contains(name) { names.append(name) }
            }
        }
        return Refusal(state: state, event: event, reason: names.isEmpty ? .noTransition : .guardFailed(names))
    }

    /// SCXML's `removeConflictingTransitions` (see `ChartShape.removeConflicts`).
    @inlinable
    mutating func removeConflicts(_ buffer: UnsafeMutableBufferPointer<Int>, count: Int) -> Int {
        let active = run.active
        let storage = self.storage
        return storage.chart.shape.removeConflicts(
            buffer, count: count, source: { storage.engine.rules[$0].source },
            exits: { storage.exitSet(rule: $0, active: active) })
    }

    /// The states a rule exits: the active descendants of its domain (none for a targetless rule).
    @inlinable
    mutating func exitSet(rule: Int) -> StateSet {
        storage.exitSet(rule: rule, active: run.active)
    }

    /// The states a rule enters, computed after its exits (SCXML's `enterStates` follows
    /// `exitStates`): a rule to a history state enters what the history holds now, which its
    /// exits may just have recorded.
    @inlinable
    mutating func entrySet(rule: Int) -> StateSet {
        guard storage.engine.rules[rule].isDynamic else { return storage.engine.rules[rule].entry }
        return historyEntry(target: storage.engine.rules[rule].target, domain: storage.engine.rules[rule].domain)
    }

    /// The entry set of a transition to the history state `target` with domain `domain`, from
    /// what the history holds now.
    @usableFromInline
    func historyEntry(target: Int, domain: Int?) -> StateSet {
        let run = self.run
        return storage.chart.shape.entrySet(targets: [target], domain: domain, history: { run.remembered($0) })
    }

    @inlinable
    mutating func transition(ofRule rule: Int, trigger: Trigger<Event>) -> Transition<State, Event> {
        Transition(
            source: storage.engine.states[storage.engine.rules[rule].source],
            target: storage.engine.states[storage.engine.rules[rule].target], trigger: trigger,
            isInternal: storage.engine.rules[rule].isInternal)
    }
}

extension DefinitionStorage {
    /// The states rule `rule` exits from `active`: the active descendants of its domain, none for a
    /// rule that does not leave its state.
    @inlinable
    func exitSet(rule: Int, active: StateSet) -> StateSet {
        guard engine.rules[rule].kind == .leaves else { return StateSet(count: chart.shape.count) }
        return chart.shape.exitSet(domain: engine.rules[rule].domain, in: active)
    }
}
