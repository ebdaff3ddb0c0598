/// Decides a microstep in advance, as `StateMachine.sendChart` decides it when it runs (SCXML's
/// `selectTransitions`, `removeConflictingTransitions` and `microstep`), for the cases whose
/// outcome depends on the configuration and the event alone.
struct PlanCompiler<Context, Event> {
    let chart: ChartTables
    let parts: CompiledParts<Event, Context>
    var steps: [ChartStep] = []
    var actions: [Unmanaged<Box<ActionBody<Context, Event>>>] = []
    var stamped: [Int32] = []
    var stampOffsets: [Int32] = []
    var rules: [Int32] = []
    /// The step `plan` added last, waiting for the index of its configuration.
    private var last: ChartStep?

    init(chart: ChartTables, parts: CompiledParts<Event, Context>) {
        self.chart = chart
        self.parts = parts
    }

    /// Plans `slot` in `configuration`.
    ///
    /// - Returns: `nil` when the general algorithm must decide; `.some(nil)` when no rule takes
    ///   the event (a refusal); otherwise the configuration the step leads to, with the step
    ///   waiting for ``finishLast(next:)`` or ``dropLast()``.
    mutating func plan(_ configuration: StateSet, slot: Int) -> StateSet?? {
        let shape = chart.shape
        let records = parts.rules
        var selected: [Int] = []
        var undecided = false
        configuration.intersection(shape.atomic).forEachAscending { leaf in
            let record = parts.stateRecords[leaf]
            for row in record.selectionStart..<record.selectionEnd where records[parts.selection[row]].slot == slot {
                let rule = parts.selection[row]
                // A guard depends on the context, a `Refuse` on what the other regions take.
                if records[rule].guardBody != nil || records[rule].kind == .refuses { undecided = true }
                if !selected.contains(rule) { selected.append(rule) }
                return
            }
        }
        if undecided || selected.contains(where: { records[$0].isDynamic }) { return nil }
        if selected.isEmpty { return .some(nil) }

        func exits(_ rule: Int) -> StateSet {
            let domain = records[rule].domain
            return domain == Domain.none
                ? StateSet(count: shape.count) : configuration.intersection(shape.below(domain))
        }
        var kept: [Int] = []
        for rule in selected {
            let ruleExits = exits(rule)
            var preempted = false
            var removed: [Int] = []
            for other in kept where ruleExits.intersects(exits(other)) {
                if shape.isDescendant(records[rule].source, of: records[other].source) {
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
            entrySet.formUnion(records[rule].entry)
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
        for state in exitOrder {
            actions += parts.actions(parts.stateRecords[state].exitStart, parts.stateRecords[state].exitEnd)
        }
        for rule in kept { actions += parts.actions(records[rule].actionStart, records[rule].actionEnd) }
        let stampStart = Int32(stamped.count)
        let entering = entrySet.indices
        for (offset, state) in entering.enumerated() {
            actions += parts.actions(parts.stateRecords[state].entryStart, parts.stateRecords[state].entryEnd)
            if parts.stateRecords[state].hasActivity {
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
        let rulesStart = Int32(self.rules.count)
        self.rules += kept.map { Int32($0) }
        last = ChartStep(
            next: Int32(NoIndex.value), leaf: Int32(leaf), start: start, end: Int32(actions.count),
            enteredCount: Int32(entering.count), stampStart: stampStart, stampEnd: Int32(stamped.count),
            rulesStart: rulesStart, rulesEnd: Int32(self.rules.count), source: Int32(records[kept[0]].source),
            target: Int32(records[kept[0]].target), isInternal: records[kept[0]].isInternal,
            settles: chart.hasEventless || raises)
        return .some(next)
    }

    /// Keeps the step `plan` added last, leading to configuration `next`.
    mutating func finishLast(next: Int) {
        guard let step = last else { return }
        steps.append(
            ChartStep(
                next: Int32(next), leaf: step.leaf, start: step.start, end: step.end,
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
