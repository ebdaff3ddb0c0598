// A flat machine's steps: by its plan (`FlatPlan`) when the event has a slot, else by scanning
// the current state's rules.

extension StateMachine {
    /// Tries the steps of the current state for the event from `first` on (see `FlatPlan`): the
    /// first whose guard holds is taken.
    @inlinable
    @inline(__always)
    mutating func takeFlat(from first: Int, event: Event) -> Outcome<State, Event> {
        var index = first
        repeat {
            let step = storage.engine.flat.steps[index]
            if step.guardBody.map({ $0._withUnsafeGuaranteedRef { $0.value.holds(context, event) } }) ?? true {
                return take(step, event: event)
            }
            index = Int(step.next)
        } while index >= 0
        return .refused(refusal(of: event, in: stateIndex, guardsFailed: true))
    }

    /// Takes a step of a flat machine found by its event slot.
    @inlinable
    @inline(__always)
    mutating func take(_ step: FlatStep<Context, Event>, event: Event) -> Outcome<State, Event> {
        let source = stateIndex
        switch step.kind {
        case .leaves:
            runSteps(from: Int(step.start), to: Int(step.split), event: event)
            let target = Int(step.target)
            stateIndex = target
            epoch &+= 1
            runSteps(from: Int(step.split), to: Int(step.end), event: event)
            return .transitioned(
                Transition(
                    source: storage.engine.states[source], target: storage.engine.states[target],
                    trigger: .event(event), isInternal: false))
        case .stays:
            runSteps(from: Int(step.start), to: Int(step.end), event: event)
            let state = storage.engine.states[source]
            return .transitioned(Transition(source: state, target: state, trigger: .event(event), isInternal: true))
        case .refuses:
            return .refused(rejection(ofRule: Int(step.rule), event: event))
        }
    }

    /// Runs actions `start ..< end` of the flat plan.
    @inlinable
    @inline(__always)
    mutating func runSteps(from start: Int, to end: Int, event: Event) {
        var index = start
        while index < end {
            storage.engine.flat.actions[index]._withUnsafeGuaranteedRef { $0.value.run(&context, event) }
            index &+= 1
        }
    }

    /// Offers `event` to the current state's rules in order: the first whose guard holds is taken.
    @inlinable
    mutating func scan(_ event: Event) -> Outcome<State, Event> {
        let source = stateIndex
        if storage.engine.stateRecords[source].isFinal {
            return .refused(Refusal(state: storage.engine.states[source], event: event, reason: .finalState))
        }
        var guardsFailed = false
        var index = storage.engine.stateRecords[source].selectionStart
        let end = storage.engine.stateRecords[source].selectionEnd
        while index < end {
            let rule = storage.engine.selection[index]
            if storage.engine.rules[rule].event == event {
                if storage.engine.rules[rule].holds(context, event) { return take(rule: rule, event: event) }
                guardsFailed = true
            }
            index &+= 1
        }
        return .refused(refusal(of: event, in: source, guardsFailed: guardsFailed))
    }

    /// Takes rule `rule` of a flat machine.
    @inlinable
    @inline(__always)
    mutating func take(rule: Int, event: Event) -> Outcome<State, Event> {
        let source = stateIndex
        let actions = (storage.engine.rules[rule].actionStart, storage.engine.rules[rule].actionEnd)
        switch storage.engine.rules[rule].kind {
        case .stays:
            runActions(from: actions.0, to: actions.1, event: event)
            let state = storage.engine.states[source]
            return .transitioned(Transition(source: state, target: state, trigger: .event(event), isInternal: true))
        case .refuses:
            return .refused(rejection(ofRule: rule, event: event))
        case .leaves:
            let target = storage.engine.rules[rule].target
            runActions(
                from: storage.engine.stateRecords[source].exitStart, to: storage.engine.stateRecords[source].exitEnd,
                event: event)
            runActions(from: actions.0, to: actions.1, event: event)
            stateIndex = target
            epoch &+= 1
            runActions(
                from: storage.engine.stateRecords[target].entryStart, to: storage.engine.stateRecords[target].entryEnd,
                event: event)
            return .transitioned(
                Transition(
                    source: storage.engine.states[source], target: storage.engine.states[target],
                    trigger: .event(event), isInternal: false))
        }
    }

    /// Runs actions `start ..< end` of the definition's pool (a rule's, or a state's entry or exit).
    @inlinable
    @inline(__always)
    mutating func runActions(from start: Int, to end: Int, event: Event?) {
        var index = start
        while index < end {
            storage.engine.actions[index]._withUnsafeGuaranteedRef { $0.value.run(&context, event) }
            index &+= 1
        }
    }
}
