// A flat machine's steps: by its plan (`FlatPlan`) when the event has a slot, else by scanning
// the current state's rules.

extension StateMachine {
    /// Tries the steps of the current state for the event from `first` on (see `FlatPlan`): the
    /// first whose guard holds is taken.
    @inlinable
    @inline(__always)
    mutating func takeFlat(
        from first: UnsafeMutablePointer<FlatStep<Context, Event>>, event: Event
    ) -> Outcome<State, Event> {
        // `first` points into `flat.steps`, and every `next` indexes it (see `FlatPlan`).
        var step = first
        while let guardBody = step.pointee.guardBody,
            !guardBody._withUnsafeGuaranteedRef({ $0.value.holds(context, event) })
        {
            guard let next = step.pointee.next else {
                return .refused(refusal(of: event, in: stateIndex, guardsFailed: true))
            }
            step = storage.engine.flat.steps.base + Int(next)
        }
        return take(step, event: event)
    }

    /// Takes a step of a flat machine found by its event slot. Its exit, transition and entry
    /// actions run as one list, then the machine moves: no action can see the machine's state.
    @inlinable
    @inline(__always)
    mutating func take(_ step: UnsafeMutablePointer<FlatStep<Context, Event>>, event: Event) -> Outcome<State, Event> {
        let kind = step.pointee.kind
        if kind == .refuses { return .refused(rejection(ofRule: Int(step.pointee.rule), event: event)) }
        var index = Int(step.pointee.start)
        let end = Int(step.pointee.end)
        while index < end {
            storage.engine.flat.actions[index]._withUnsafeGuaranteedRef { $0.value.run(&context, event) }
            index &+= 1
        }
        // A step that stays has its source as its target.
        let source = stateIndex
        let target = Int(step.pointee.target)
        stateIndex = target
        epoch &+= UInt64(step.pointee.entered)
        return .transitioned(
            Transition(
                source: storage.engine.states[source], target: storage.engine.states[target], trigger: .event(event),
                isInternal: step.pointee.entered == 0))
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
