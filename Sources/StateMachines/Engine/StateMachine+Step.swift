public import StatechartSemantics

// A statechart's steps: one microstep, whatever it is taken on (an event sent or raised, no
// event, a state done), and the loop that takes them until the configuration is stable (SCXML's
// macrostep). A microstep is the step the definition planned for the configuration and the event
// when it has one; else SCXML's selection, conflict removal and `microstep`, whose exits and
// entries are in `StateMachine+Microstep.swift`.

extension StateMachine {
    /// Takes one microstep on `trigger`: the planned step when the plans have one for the active
    /// configuration and the event, else the rules selected (SCXML's `selectTransitions`,
    /// `selectEventlessTransitions`, or a done state's first enabled rule) without their
    /// conflicts, exited, run and entered. `buffer` has room for one rule per state.
    @inlinable
    @inline(__always)
    mutating func step(
        _ trigger: StepTrigger<Event>, buffer: UnsafeMutableBufferPointer<Int>,
        onTransition: ((Transition<State, Event>) -> Void)?
    ) -> StepResult {
        let count: Int
        switch trigger {
        case .event(let event), .raised(let event):
            switch plannedCell(for: event) {
            case .step(let index):
                let step = storage.engine.planned.steps.base + Int(index)
                runPlanned(step, event: event, trigger: trigger.trigger, onTransition: onTransition)
                return .took(rule: Int(storage.engine.planned.rules[Int(step.pointee.rulesStart)]))
            case .refused: return .none(rejection: nil, guardsFailed: false)
            case .undecided: break
            }
            let selected = selectRules(for: event, kind: storage.kindReader?.read(event), into: buffer)
            guard selected.count > 0 else {
                return .none(rejection: selected.rejection, guardsFailed: selected.guardsFailed)
            }
            count = selected.count
        case .eventless:
            count = selectEventless(into: buffer)
        case .done(let state):
            count = selectDone(state, into: buffer)
        }
        guard count > 0 else { return .none(rejection: nil, guardsFailed: false) }
        let kept = count > 1 ? removeConflicts(buffer, count: count) : 1
        let first = buffer[0]
        microstep(
            rules: buffer, count: kept, event: trigger.event, trigger: trigger.trigger, onTransition: onTransition)
        return .took(rule: first)
    }

    /// Enters the initial configuration and settles.
    mutating func startChart() {
        enterStates(storage.chart.initialEntry, event: nil)
        _ = settle(onTransition: nil)
    }

    /// Takes eventless transitions, then the internal queue's events, until neither moves the
    /// machine (SCXML's macrostep).
    ///
    /// - Returns: `nil` when the machine settled; the number of steps taken when it did not
    ///   settle within the definition's limit (the queue is then dropped).
    @inlinable
    mutating func settle(onTransition: ((Transition<State, Event>) -> Void)?) -> Int? {
        if !storage.chart.hasEventless && !run.hasQueued { return nil }
        let limit = storage.chart.microstepLimit
        var steps = 0
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: Swift.max(1, storage.chart.shape.count)) {
            buffer -> Int? in
            while !run.isDone {
                var took = false
                if storage.chart.hasEventless, case .took = step(.eventless, buffer: buffer, onTransition: onTransition)
                {
                    took = true
                }
                if !took {
                    guard let next = run.dequeue() else { return nil }
                    let trigger: StepTrigger<Event> =
                        switch next {
                        case .raised(let event): .raised(event)
                        case .done(let state): .done(state)
                        }
                    if case .took = step(trigger, buffer: buffer, onTransition: onTransition) { took = true }
                }
                if took {
                    steps += 1
                    if steps >= limit {
                        run.clearQueue()
                        return steps
                    }
                }
            }
            run.clearQueue()
            return nil
        }
    }
}
