/// A transcription of W3C SCXML 1.0, Appendix D ("Algorithm for SCXML Interpretation"), for the
/// features `ReferenceChart` has, with one change that BehaviorKit makes on purpose.
///
/// The change: `getTransitionDomain` reads the transition's declared targets, not its effective
/// ones. A transition to a history state then has the domain it would have to any child of the
/// history's parent, so the states between that parent and the remembered ones are exited and
/// entered again (as sismic does). Appendix D's letter computes the domain from the remembered
/// states, which enters the states in between a second time without exiting them.
///
/// The names follow Appendix D's pseudo-code; its ordered sets are arrays, document order is
/// the node number, and there is no data model, no invoke and no final state; `<raise>` is the
/// one executable content.
struct ReferenceInterpreter {
    struct TransitionID: Equatable {
        var source: Int
        var index: Int
    }

    let chart: ReferenceChart
    var configuration: Set<Int> = []
    var historyValue: [Int: [Int]] = [:]
    var internalQueue: [Int] = []
    var context: DifferentialContext
    /// How many times a history state was entered with a recorded value: the generator's reach.
    var recordedHistoryEntries = 0

    /// Enters the initial configuration (the root's initial transition), then settles.
    init(_ chart: ReferenceChart, context: DifferentialContext) {
        self.chart = chart
        self.context = context
        var statesToEnter: [Int] = []
        addDescendantStatesToEnter(chart.initial, &statesToEnter)
        addAncestorStatesToEnter(chart.initial, 0, &statesToEnter)
        enter(statesToEnter)
        settle()
    }

    /// The active states in document order, the root left out.
    var activeStates: [Int] { configuration.sorted() }

    /// One external event: its transitions, then the eventless ones until none is enabled.
    ///
    /// Appendix D looks for eventless transitions after an event that took none too; there they
    /// cannot be enabled, since only a step changes the data they read. The test changes the
    /// context between events, so the reference looks only after a step, as BehaviorKit does.
    mutating func send(_ event: Int) {
        let enabled = selectTransitions(event: event)
        guard !enabled.isEmpty else { return }
        microstep(enabled)
        settle()
    }

    /// The rest of the macrostep: eventless transitions, else the internal queue's next event.
    mutating func settle() {
        while true {
            var enabled = selectTransitions(event: nil)
            if enabled.isEmpty {
                guard !internalQueue.isEmpty else { return }
                enabled = selectTransitions(event: internalQueue.removeFirst())
            }
            if !enabled.isEmpty { microstep(enabled) }
        }
    }

    private func transition(_ id: TransitionID) -> ReferenceChart.Transition {
        chart.nodes[id.source].transitions[id.index]
    }

    private func isAtomic(_ state: Int) -> Bool { chart.childStates(state).isEmpty }

    /// `getProperAncestors(state, upTo)`: the ancestors below `upTo`, innermost first, the root
    /// left out.
    private func properAncestors(_ state: Int, upTo: Int) -> [Int] {
        var result: [Int] = []
        var current = chart.nodes[state].parent
        while current > 0 && current != upTo {
            result.append(current)
            current = chart.nodes[current].parent
        }
        return result
    }

    /// `selectTransitions` (and `selectEventlessTransitions` for `nil`).
    private func selectTransitions(event: Int?) -> [TransitionID] {
        var enabled: [TransitionID] = []
        for state in configuration.sorted() where isAtomic(state) {
            search: for candidate in [state] + properAncestors(state, upTo: 0) {
                for (index, transition) in chart.nodes[candidate].transitions.enumerated()
                where transition.event == event && context.holds(transition.condition) {
                    let id = TransitionID(source: candidate, index: index)
                    if !enabled.contains(id) { enabled.append(id) }
                    break search
                }
            }
        }
        return removeConflictingTransitions(enabled)
    }

    private func removeConflictingTransitions(_ enabled: [TransitionID]) -> [TransitionID] {
        var filtered: [TransitionID] = []
        for t1 in enabled {
            var preempted = false
            var toRemove: [TransitionID] = []
            let exits1 = computeExitSet([t1])
            for t2 in filtered where !exits1.isDisjoint(with: computeExitSet([t2])) {
                if chart.isDescendant(t1.source, of: t2.source) {
                    toRemove.append(t2)
                } else {
                    preempted = true
                    break
                }
            }
            if !preempted {
                filtered.removeAll { toRemove.contains($0) }
                filtered.append(t1)
            }
        }
        return filtered
    }

    private mutating func microstep(_ enabled: [TransitionID]) {
        exitStates(enabled)
        executeTransitionContent(enabled)
        enterStates(enabled)
    }

    private func computeExitSet(_ transitions: [TransitionID]) -> Set<Int> {
        var statesToExit: Set<Int> = []
        for id in transitions where transition(id).target != nil {
            let domain = getTransitionDomain(id)
            for state in configuration where chart.isDescendant(state, of: domain) { statesToExit.insert(state) }
        }
        return statesToExit
    }

    private mutating func exitStates(_ enabled: [TransitionID]) {
        let statesToExit = computeExitSet(enabled).sorted(by: >)
        for state in statesToExit {
            for history in chart.nodes[state].children where chart.isHistory(history) {
                guard case .history(let deep) = chart.nodes[history].kind else { continue }
                historyValue[history] =
                    deep
                    ? configuration.sorted().filter { isAtomic($0) && chart.isDescendant($0, of: state) }
                    : configuration.sorted().filter { chart.nodes[$0].parent == state }
            }
        }
        for state in statesToExit {
            context.log.append("-\(state)")
            configuration.remove(state)
        }
    }

    private mutating func executeTransitionContent(_ enabled: [TransitionID]) {
        for id in enabled {
            context.log.append("t\(id.source).\(id.index)")
            if transition(id).spends { context.budget -= 1 }
            if let raised = transition(id).raises, context.budget > 0 { internalQueue.append(raised) }
        }
    }

    private mutating func enterStates(_ enabled: [TransitionID]) {
        var statesToEnter: [Int] = []
        computeEntrySet(enabled, &statesToEnter)
        enter(statesToEnter)
    }

    private mutating func enter(_ statesToEnter: [Int]) {
        for state in statesToEnter.sorted() {
            configuration.insert(state)
            context.log.append("+\(state)")
        }
    }

    private mutating func computeEntrySet(_ transitions: [TransitionID], _ statesToEnter: inout [Int]) {
        for id in transitions {
            guard let target = transition(id).target else { continue }
            addDescendantStatesToEnter(target, &statesToEnter)
            let ancestor = getTransitionDomain(id)
            for state in getEffectiveTargetStates(target) {
                addAncestorStatesToEnter(state, ancestor, &statesToEnter)
            }
        }
    }

    /// A history state's remembered states, else its default (its parent's initial state when
    /// it has none).
    private func historyTargets(_ history: Int) -> [Int] {
        if let remembered = historyValue[history] { return remembered }
        let parent = chart.nodes[history].parent
        return [chart.nodes[history].historyDefault ?? chart.initialTarget(parent)]
    }

    private func getEffectiveTargetStates(_ target: Int) -> [Int] {
        chart.isHistory(target) ? historyTargets(target) : [target]
    }

    /// The one change from Appendix D (see the type's note): the declared target, not the
    /// effective ones.
    private func getTransitionDomain(_ id: TransitionID) -> Int {
        let source = id.source
        guard let target = transition(id).target else { return -1 }
        if transition(id).isInternal && chart.nodes[source].kind == .compound && chart.isDescendant(target, of: source)
        {
            return source
        }
        return findLCCA(source, target)
    }

    /// The innermost compound proper ancestor of `source` (or the root) that has `target`
    /// below it.
    private func findLCCA(_ source: Int, _ target: Int) -> Int {
        for ancestor in properAncestors(source, upTo: 0)
        where chart.nodes[ancestor].kind == .compound && chart.isDescendant(target, of: ancestor) {
            return ancestor
        }
        return 0
    }

    private mutating func addDescendantStatesToEnter(_ state: Int, _ statesToEnter: inout [Int]) {
        if chart.isHistory(state) {
            if historyValue[state] != nil { recordedHistoryEntries += 1 }
            let targets = historyTargets(state)
            for target in targets { addDescendantStatesToEnter(target, &statesToEnter) }
            for target in targets { addAncestorStatesToEnter(target, chart.nodes[state].parent, &statesToEnter) }
            return
        }
        if !statesToEnter.contains(state) { statesToEnter.append(state) }
        switch chart.nodes[state].kind {
        case .compound:
            let initial = chart.initialTarget(state)
            addDescendantStatesToEnter(initial, &statesToEnter)
            addAncestorStatesToEnter(initial, state, &statesToEnter)
        case .parallel:
            for child in chart.childStates(state)
            where !statesToEnter.contains(where: { chart.isDescendant($0, of: child) }) {
                addDescendantStatesToEnter(child, &statesToEnter)
            }
        case .atomic, .history:
            break
        }
    }

    private mutating func addAncestorStatesToEnter(_ state: Int, _ ancestor: Int, _ statesToEnter: inout [Int]) {
        for parent in properAncestors(state, upTo: ancestor) {
            if !statesToEnter.contains(parent) { statesToEnter.append(parent) }
            if chart.nodes[parent].kind == .parallel {
                for child in chart.childStates(parent)
                where !statesToEnter.contains(where: { chart.isDescendant($0, of: child) }) {
                    addDescendantStatesToEnter(child, &statesToEnter)
                }
            }
        }
    }
}
