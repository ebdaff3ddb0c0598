// The one dispatcher: every event `send` receives is read here once. Its slot (its index among the
// events the rules name, from its byte, without hashing) picks the flat machine's first step or
// the statechart's planned step; everything else goes, out of line, to the flat scan or the
// statechart algorithm.

extension StateMachine {
    /// Takes `event`: the planned or indexed step when the definition has one for it, else the
    /// scan of a flat machine or the general statechart algorithm. Tells `onTransition` of each
    /// transition taken.
    @inlinable
    @inline(__always)
    mutating func dispatch(
        _ event: Event, onTransition: ((Transition<State, Event>) -> Void)?
    ) -> Outcome<State, Event> {
        // `.flat` and `.planned` imply `slots.isDirect`, and then a slot ≥ 0 is below
        // `flat.slotCount` or `planned.slotCount`, which are `slots.count`.
        let mode = storage.engine.mode
        if MemoryLayout<Event>.size == 1 && mode != .general {
            let slot = storage.engine.slots.slot(of: event)
            if slot >= 0 {
                if mode == .flat {
                    let first = Int(storage.engine.flat.first[stateIndex &* storage.engine.flat.slotCount &+ slot])
                    if first >= 0 {
                        let outcome = takeFlat(from: first, event: event)
                        if let onTransition, let transition = outcome.transition { onTransition(transition) }
                        return outcome
                    }
                } else if plannedIndexIsCurrent {
                    let cell = storage.engine.planned.cells[
                        run.planned &* storage.engine.planned.slotCount &+ slot]
                    if cell >= 0 { return takePlanned(Int(cell), event: event, onTransition: onTransition) }
                    if cell == PlanCell.refused {
                        return .refused(
                            Refusal(state: storage.engine.states[stateIndex], event: event, reason: .noTransition))
                    }
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
}
