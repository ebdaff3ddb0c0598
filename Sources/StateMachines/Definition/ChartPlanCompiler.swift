/// Decides a microstep in advance, as `StateMachine.sendChart` decides it when it runs (SCXML's
/// `selectTransitions`, `removeConflictingTransitions` and `microstep`), for the cases whose
/// outcome depends on the configuration and the event alone.
struct PlanCompiler<Context, Event> {
    typealias Source = ChartPlans<Context, Event>.Source

    let source: Source
    var steps: [ChartStep] = []
    var actions: [Unmanaged<Box<ActionBody<Context, Event>>>] = []
    var stamped: [Int32] = []
    var stampOffsets: [Int32] = []
    var rules: [Int32] = []
    /// The step `plan` added last, waiting for the index of its configuration.
    private var last: ChartStep?

    init(source: Source) {
        self.source = source
    }

    /// Plans `slot` in `configuration`.
    ///
    /// - Returns: `nil` when the general algorithm must decide; `.some(nil)` when no rule takes
    ///   the event (a refusal); otherwise the configuration the step leads to, with the step
    ///   waiting for ``finishLast(next:)`` or ``dropLast()``.
    mutating func plan(_ configuration: StateSet, slot: Int) -> StateSet?? {
        let chart = source.chart
        let shape = chart.shape
        var selected: [Int] = []
        var undecided = false
        configuration.intersection(shape.atomic).forEachAscending { leaf in
            for index in source.selectionStart[leaf]..<source.selectionStart[leaf + 1]
            where source.selectionSlot[index] == slot {
                // A guard depends on the context, a `Refuse` on what the other regions take.
                if source.selectionGuarded[index] || source.selectionStep[index] == 2 { undecided = true }
                let rule = source.selectionOriginal[index]
                if !selected.contains(rule) { selected.append(rule) }
                return
            }
        }
        if undecided || selected.contains(where: { chart.ruleIsDynamic[$0] }) { return nil }
        if selected.isEmpty { return .some(nil) }

        func exits(_ rule: Int) -> StateSet {
            let domain = chart.ruleDomain[rule]
            return domain == -2 ? StateSet(count: shape.count) : configuration.intersection(shape.below(domain))
        }
        var kept: [Int] = []
        for rule in selected {
            let ruleExits = exits(rule)
            var preempted = false
            var removed: [Int] = []
            for other in kept where ruleExits.intersects(exits(other)) {
                if shape.isDescendant(chart.ruleSource[rule], of: chart.ruleSource[other]) {
                    removed.append(other)
                } else {
                    preempted = true
                    break
                }
            }
            if preempted { continue }
            kept = kept.filter { !removed.contains($0) } + [rule]
        }

        var exitSet = StateSet(count: shape.count)
        var entrySet = exitSet
        for rule in kept {
            exitSet.formUnion(exits(rule))
            entrySet.formUnion(chart.ruleEntry[rule])
        }
        // Recording history and completing final states are left to the general algorithm.
        if exitSet.intersects(shape.historyOwners) || entrySet.indices.contains(where: { shape.isFinal[$0] }) {
            return nil
        }
        var next = configuration
        next.subtract(exitSet)
        next.formUnion(entrySet)
        guard let leaf = next.intersection(shape.atomic).first else { return nil }

        let start = Int32(actions.count)
        var exitOrder: [Int] = []
        exitSet.forEachDescending { exitOrder.append($0) }
        for state in exitOrder { actions += source.exitActions[state] }
        for rule in kept { actions += source.ruleActions[rule] }
        let split = Int32(actions.count)
        let stampStart = Int32(stamped.count)
        let entering = entrySet.indices
        for (offset, state) in entering.enumerated() {
            actions += source.entryActions[state]
            if source.hasActivity[state] {
                stamped.append(Int32(state))
                stampOffsets.append(Int32(offset + 1))
            }
        }
        let raises = actions[Int(start)...].contains { action in
            action._withUnsafeGuaranteedRef { box in
                if case .raise = box.value { return true }
                return false
            }
        }
        let rulesStart = Int32(rules.count)
        rules += kept.map { Int32($0) }
        last = ChartStep(
            next: -1, leaf: Int32(leaf), start: start, split: split, end: Int32(actions.count),
            enteredCount: Int32(entering.count), stampStart: stampStart, stampEnd: Int32(stamped.count),
            rulesStart: rulesStart, rulesEnd: Int32(rules.count), source: Int32(chart.ruleSource[kept[0]]),
            target: Int32(chart.ruleTarget[kept[0]]), isInternal: chart.ruleIsTargetless[kept[0]],
            settles: chart.hasEventless || raises)
        return .some(next)
    }

    /// Keeps the step `plan` added last, leading to configuration `next`.
    mutating func finishLast(next: Int) {
        guard let step = last else { return }
        steps.append(
            ChartStep(
                next: Int32(next), leaf: step.leaf, start: step.start, split: step.split, end: step.end,
                enteredCount: step.enteredCount, stampStart: step.stampStart, stampEnd: step.stampEnd,
                rulesStart: step.rulesStart, rulesEnd: step.rulesEnd, source: step.source, target: step.target,
                isInternal: step.isInternal, settles: step.settles))
        last = nil
    }

    /// Forgets the step `plan` added last (its configuration is past the limit).
    mutating func dropLast() {
        guard let step = last else { return }
        actions.removeLast(actions.count - Int(step.start))
        stamped.removeLast(stamped.count - Int(step.stampStart))
        stampOffsets.removeLast(stampOffsets.count - Int(step.stampStart))
        rules.removeLast(rules.count - Int(step.rulesStart))
        last = nil
    }
}
