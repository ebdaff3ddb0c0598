public import StatechartSemantics

// Statecharts by plan (see `ChartPlans`): when the definition decided the step for this
// configuration and event in advance, `dispatch` runs the plan's actions and moves to its
// configuration; the general algorithm of `StateMachine+Chart.swift` takes every other step.

extension StateMachine {
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
        guard UInt(bitPattern: index) < UInt(bitPattern: storage.engine.planned.configurationCount) else {
            return false
        }
        if run.active.extra == 0 { return storage.engine.planned.configurationLows[index] == run.active.low }
        return storage.engine.planned.configurations[index] == run.active
    }

    /// The plan for `event` now. Looks the active configuration up among the plans when it
    /// changed since it was last seen there.
    @inlinable
    @inline(__always)
    mutating func plannedCell(for event: Event) -> PlanCell {
        guard MemoryLayout<Event>.size == 1, storage.engine.planned.isEnabled else { return .undecided }
        if !plannedIndexIsCurrent {
            if run.isOffPlan { return .undecided }
            guard let index = plannedConfiguration() else {
                run.isOffPlan = true
                return .undecided
            }
            run.planned = index
        }
        guard let slot = storage.engine.slots.slot(of: event), slot < storage.engine.planned.slotCount else {
            return .undecided
        }
        return storage.engine.planned.cells[run.planned &* storage.engine.planned.slotCount &+ slot]
    }

    /// The index of the active configuration among the planned ones, if it is planned: after a
    /// step the plans did not take, the machine finds its way back here.
    @usableFromInline
    func plannedConfiguration() -> Int? {
        run.isDone ? nil : storage.engine.planned.ids[run.active]
    }

    /// Takes planned step `index` for `event`, then the eventless and raised steps that follow.
    @inlinable
    @inline(__always)
    mutating func takePlanned(
        _ index: Int, event: Event, onTransition: ((Transition<State, Event>) -> Void)?
    ) -> Outcome<State, Event> {
        let step = storage.engine.planned.steps.base + index
        runPlanned(step, event: event, trigger: .event(event), onTransition: onTransition)
        if step.pointee.settles, let steps = settle(onTransition: onTransition) {
            return .refused(Refusal(state: state, event: event, reason: .endlessLoop(steps)))
        }
        return .transitioned(
            Transition(
                source: storage.engine.states[Int(step.pointee.source)],
                target: storage.engine.states[Int(step.pointee.target)], trigger: .event(event),
                isInternal: step.pointee.isInternal))
    }

    /// Runs a planned microstep: exit, transition and entry actions as one list (no action can
    /// see the configuration), the new configuration, then tells `onTransition` of each
    /// transition taken.
    @inlinable
    @inline(__always)
    mutating func runPlanned(
        _ step: UnsafeMutablePointer<ChartStep>, event: Event, trigger: Trigger<Event>,
        onTransition: ((Transition<State, Event>) -> Void)?
    ) {
        if step.pointee.raises {
            runChartActions(
                storage.engine.planned.actions, from: Int(step.pointee.start), to: Int(step.pointee.end), event: event)
        } else {
            // No action of the step raises: each runs without looking for a raise.
            var index = Int(step.pointee.start)
            while index < Int(step.pointee.end) {
                storage.engine.planned.actions[index]._withUnsafeGuaranteedRef { $0.value.run(&context, event) }
                index &+= 1
            }
        }
        let next = Int(step.pointee.next)
        if run.active.extra == 0 {
            run.active.low = storage.engine.planned.configurationLows[next]
        } else {
            run.active = storage.engine.planned.configurations[next]
        }
        run.planned = next
        if step.pointee.stampStart < step.pointee.stampEnd {
            let stamped = storage.engine.planned.stamped
            let offsets = storage.engine.planned.stampOffsets
            let epoch = self.epoch
            run.stamps.withUnsafeMutableBufferPointer { stamps in
                for position in Int(step.pointee.stampStart)..<Int(step.pointee.stampEnd) {
                    stamps[Int(stamped[position])] = epoch &+ UInt64(offsets[position])
                }
            }
        }
        epoch &+= UInt64(step.pointee.enteredCount)
        stateIndex = Int(step.pointee.leaf)
        if let onTransition {
            var position = Int(step.pointee.rulesStart)
            while position < Int(step.pointee.rulesEnd) {
                onTransition(transition(ofRule: Int(storage.engine.planned.rules[position]), trigger: trigger))
                position &+= 1
            }
        }
    }
}
