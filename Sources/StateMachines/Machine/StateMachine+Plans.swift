// Statecharts by plan (see `ChartPlans`): when the definition decided the step for this
// configuration and event in advance, `send` runs the plan's actions and moves to its
// configuration; the general algorithm of `StateMachine+Chart.swift` takes every other step.

extension StateMachine {
    /// `send` on a statechart: the planned step when there is one, else the general algorithm.
    @inlinable
    @inline(__always)
    mutating func sendStatechart(_ event: Event) -> Outcome<State, Event> {
        if MemoryLayout<Event>.size == 1 && storage.table.planned.isEnabled && plannedIndexIsCurrent {
            let slot = storage.table.slots.slot(of: event)
            if UInt(bitPattern: slot) < UInt(bitPattern: storage.table.planned.slotCount) {
                let cell = storage.table.planned.cells[run.planned &* storage.table.planned.slotCount &+ slot]
                if cell >= 0 { return takePlanned(Int(cell), event: event, onTransition: nil) }
                if cell == -2 {
                    return .refused(
                        Refusal(state: storage.table.states[stateIndex], event: event, reason: .noTransition))
                }
            }
        }
        return sendChart(event, onTransition: nil)
    }

    /// Whether `run.planned` indexes the planned configurations and names the active one.
    ///
    /// `run.planned` is a cache of where `run.active` sits among the plans; it indexes the
    /// definition's tables only once checked here, so that a machine whose run was copied,
    /// restored or left by a step the plans did not take reads nothing out of bounds and never
    /// takes a step planned for another configuration. One compare of the first word for a
    /// chart of up to 64 states.
    @inlinable
    @inline(__always)
    var plannedIndexIsCurrent: Bool {
        let index = run.planned
        guard UInt(bitPattern: index) < UInt(bitPattern: storage.table.planned.configurationCount) else {
            return false
        }
        if run.active.extra == 0 { return storage.table.planned.configurationLows[index] == run.active.low }
        return storage.table.planned.configurations[index] == run.active
    }

    /// The plan for `event` now: a step (≥ 0), a refusal for want of any rule (-2), or none (-1).
    @inlinable
    mutating func plannedCell(for event: Event) -> Int {
        guard MemoryLayout<Event>.size == 1, storage.table.planned.isEnabled else { return -1 }
        if !plannedIndexIsCurrent {
            // -2: the active configuration was looked up since it last changed, and is not planned.
            if run.planned == -2 { return -1 }
            run.planned = plannedConfiguration()
            guard UInt(bitPattern: run.planned) < UInt(bitPattern: storage.table.planned.configurationCount) else {
                return -1
            }
        }
        let slot = storage.table.slots.slot(of: event)
        guard UInt(bitPattern: slot) < UInt(bitPattern: storage.table.planned.slotCount) else { return -1 }
        return Int(storage.table.planned.cells[run.planned &* storage.table.planned.slotCount &+ slot])
    }

    /// The index of the active configuration among the planned ones, or -2: after a step the
    /// plans did not take, the machine finds its way back here, once.
    @usableFromInline
    func plannedConfiguration() -> Int {
        run.isDone ? -2 : storage.table.planned.ids[run.active] ?? -2
    }

    /// Takes planned step `index` for `event`, then the eventless and raised steps that follow.
    @inlinable
    @inline(__always)
    mutating func takePlanned(
        _ index: Int, event: Event, onTransition: ((Transition<State, Event>) -> Void)?
    ) -> Outcome<State, Event> {
        let step = storage.table.planned.steps.base + index
        runPlanned(step, event: event, trigger: .event(event), onTransition: onTransition)
        if step.pointee.settles, let steps = settle(onTransition: onTransition) {
            return .refused(Refusal(state: state, event: event, reason: .endlessLoop(steps)))
        }
        return .transitioned(
            Transition(
                source: storage.table.states[Int(step.pointee.source)],
                target: storage.table.states[Int(step.pointee.target)], trigger: .event(event),
                isInternal: step.pointee.isInternal))
    }

    /// Runs a planned microstep: exit and transition actions, the new configuration, entry
    /// actions, then tells `onTransition` of each transition taken.
    @inlinable
    @inline(__always)
    mutating func runPlanned(
        _ step: UnsafeMutablePointer<ChartStep>, event: Event, trigger: Trigger<Event>,
        onTransition: ((Transition<State, Event>) -> Void)?
    ) {
        runChartActions(
            storage.table.planned.actions, from: Int(step.pointee.start), to: Int(step.pointee.split), event: event)
        let next = Int(step.pointee.next)
        if run.active.extra == 0 {
            run.active.low = storage.table.planned.configurationLows[next]
        } else {
            run.active = storage.table.planned.configurations[next]
        }
        run.planned = next
        if step.pointee.stampStart < step.pointee.stampEnd {
            let stamped = storage.table.planned.stamped
            let offsets = storage.table.planned.stampOffsets
            let epoch = self.epoch
            run.stamps.withUnsafeMutableBufferPointer { stamps in
                for position in Int(step.pointee.stampStart)..<Int(step.pointee.stampEnd) {
                    stamps[Int(stamped[position])] = epoch &+ UInt64(offsets[position])
                }
            }
        }
        epoch &+= UInt64(step.pointee.enteredCount)
        stateIndex = Int(step.pointee.leaf)
        runChartActions(
            storage.table.planned.actions, from: Int(step.pointee.split), to: Int(step.pointee.end), event: event)
        if let onTransition {
            var position = Int(step.pointee.rulesStart)
            while position < Int(step.pointee.rulesEnd) {
                onTransition(transition(ofRule: Int(storage.table.planned.rules[position]), trigger: trigger))
                position &+= 1
            }
        }
    }
}
