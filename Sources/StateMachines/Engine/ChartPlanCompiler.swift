internal import StatechartSemantics

/// Decides a microstep in advance, as `StateMachine.step` decides it when it runs (SCXML's
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
        var undecided = false
        let selected = withUnsafeTemporaryAllocation(of: Int.self, capacity: Swift.max(1, shape.count)) { buffer in
            let selection = shape.select(in: configuration, into: buffer) { leaf in
                let record = parts.stateRecords[leaf]
                for row in record.selectionStart..<record.selectionEnd where records[parts.selection[row]].slot == slot
                {
                    let rule = parts.selection[row]
                    // A guard depends on the context, a `Refuse` on what the other regions take.
                    if records[rule].guardBody != nil || records[rule].kind == .refuses { undecided = true }
                    return (rule, false)
                }
                return nil
            }
            return Array(buffer[0..<selection.count])
        }
        if undecided || selected.contains(where: { records[$0].isDynamic }) { return nil }
        if selected.isEmpty { return .some(nil) }

        func exits(_ rule: Int) -> StateSet {
            records[rule].kind == .leaves
                ? shape.exitSet(domain: records[rule].domain, in: configuration) : StateSet(count: shape.count)
        }
        let kept = shape.removingConflicts(selected, source: { records[$0].source }, exits: exits)
        let (exitSet, entrySet, next) = shape.microstep(
            kept, in: configuration, exits: exits, entries: { records[$0].entry })
        // Recording history and completing final states are left to the general algorithm.
        if exitSet.intersects(shape.historyOwners) || entrySet.intersects(shape.finals) { return nil }
        guard let leaf = next.intersection(shape.atomic).first else { return nil }

        let start = Int32(actions.count)
        for state in shape.exitOrder(exitSet) {
            actions += parts.actions(parts.stateRecords[state].exitStart, parts.stateRecords[state].exitEnd)
        }
        for rule in kept { actions += parts.actions(records[rule].actionStart, records[rule].actionEnd) }
        let stampStart = Int32(stamped.count)
        let entering = shape.entryOrder(entrySet)
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
        // `next` is set by `finishLast(next:)`, once the configuration it leads to is numbered.
        last = ChartStep(
            next: 0, leaf: Int32(leaf), start: start, end: Int32(actions.count),
            enteredCount: Int32(entering.count), stampStart: stampStart, stampEnd: Int32(stamped.count),
            rulesStart: rulesStart, rulesEnd: Int32(self.rules.count), source: Int32(records[kept[0]].source),
            target: Int32(records[kept[0]].target), isInternal: records[kept[0]].isInternal,
            raises: raises, settles: chart.hasEventless || raises)
        return .some(next)
    }

    /// Keeps the step `plan` added last, leading to configuration `next`.
    mutating func finishLast(next: Int) {
        guard var step = last else { return }
        step.next = Int32(next)
        steps.append(step)
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
