public import StatechartSemantics

// The one dispatcher: every event `send` receives is read here once. Its slot (its index among the
// events the rules name, from its byte, without hashing) picks the flat machine's first step or
// the statechart's planned step; everything else goes, out of line, to the flat scan or to a
// statechart's microstep (`step`, in `StateMachine+Step.swift`) and the steps that follow it.

extension StateMachine {
    /// Takes `event`: the planned or indexed step when the definition has one for it, else the
    /// scan of a flat machine or the general statechart algorithm. Tells `onTransition` of each
    /// transition taken.
    @inlinable
    @inline(__always)
    mutating func dispatch(
        _ event: Event, onTransition: ((Transition<State, Event>) -> Void)?
    ) -> Outcome<State, Event> {
        // `.flat` and `.planned` imply `slots.isDirect`, and then a slot is below `flat.slotCount`
        // or `planned.slotCount`, which are `slots.count`.
        if MemoryLayout<Event>.size == 1 {
            let mode = storage.engine.mode
            if mode == .flat {
                if let slot = storage.engine.slots.slot(of: event),
                    let first = storage.engine.flat.first[stateIndex &* storage.engine.flat.slotCount &+ slot]
                {
                    let outcome = takeFlat(from: first, event: event)
                    if let onTransition, let transition = outcome.transition { onTransition(transition) }
                    return outcome
                }
            } else if mode == .planned, let slot = storage.engine.slots.slot(of: event), plannedIndexIsCurrent {
                switch storage.engine.planned.cells[run.planned &* storage.engine.planned.slotCount &+ slot] {
                case .step(let index): return takePlanned(Int(index), event: event, onTransition: onTransition)
                case .refused:
                    return .refused(
                        Refusal(state: storage.engine.states[stateIndex], event: event, reason: .noTransition))
                case .undecided: break
                }
            }
        }
        return dispatchUnplanned(event, onTransition: onTransition)
    }

    /// What the indexed and planned paths do not take: statecharts off their plans, events
    /// without a slot, events no rule names, final states. Out of line, so that `send` stays small.
    @inlinable
    @inline(never)
    mutating func dispatchUnplanned(
        _ event: Event, onTransition: ((Transition<State, Event>) -> Void)?
    ) -> Outcome<State, Event> {
        if storage.chart.isChart { return sendChart(event, onTransition: onTransition) }
        let outcome = scan(event)
        if let onTransition, let transition = outcome.transition { onTransition(transition) }
        return outcome
    }

    /// An event sent to a statechart off its plans: one microstep (see `step`), then the eventless
    /// and raised steps that follow.
    @inlinable
    mutating func sendChart(
        _ event: Event, onTransition: ((Transition<State, Event>) -> Void)?
    ) -> Outcome<State, Event> {
        if run.isDone { return .refused(Refusal(state: state, event: event, reason: .finalState)) }
        let taken = withUnsafeTemporaryAllocation(of: Int.self, capacity: Swift.max(1, storage.chart.shape.count)) {
            step(.event(event), buffer: $0, onTransition: onTransition)
        }
        switch taken {
        case .none(let rejection, let guardsFailed):
            return .refused(
                chartRefusal(
                    of: event, kind: storage.kindReader?.read(event), rejection: rejection,
                    guardsFailed: guardsFailed))
        case .took(let rule):
            if let steps = settle(onTransition: onTransition) {
                return .refused(Refusal(state: state, event: event, reason: .endlessLoop(steps)))
            }
            return .transitioned(transition(ofRule: rule, trigger: .event(event)))
        }
    }
}
