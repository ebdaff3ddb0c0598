internal import StatechartSemantics

extension StateMachineDefinition {
    /// Checks the definition and reports each problem it finds, naming the states and events
    /// involved: unreachable states (through nesting, never through a final state), dead ends,
    /// conflicting unguarded transitions, undeclared states, timers that can never fire, rules in
    /// final states, history states without a default and bad initial states. An empty result
    /// means none was found.
    ///
    /// ```swift
    /// for diagnostic in definition.validate() { print(diagnostic) }
    /// // deadEnd: state 'broken' is not final but has no transition or timer out of it
    /// ```
    public func validate() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let nodes = storage.nodes
        let names = storage.states.map { "\($0)" }

        for (index, node) in nodes.enumerated() where !node.isDeclared {
            let role = index == storage.initialIndex ? "the initial state" : "a target"
            diagnostics.append(
                Diagnostic(
                    kind: .undeclaredState, states: [names[index]], events: [],
                    message: "state '\(names[index])' is \(role) but is never declared with In(...)"))
        }

        let reachable = reachableStates()
        for index in nodes.indices where !reachable.contains(index) && nodes[index].isDeclared {
            diagnostics.append(
                Diagnostic(
                    kind: .unreachableState, states: [names[index]], events: [],
                    message:
                        "state '\(names[index])' cannot be reached from the initial state '\(names[storage.initialIndex])'"
                ))
        }

        for index in nodes.indices where isDeadEnd(index) {
            diagnostics.append(
                Diagnostic(
                    kind: .deadEnd, states: [names[index]], events: [],
                    message: "state '\(names[index])' is not final but has no transition or timer out of it"))
        }

        for index in nodes.indices {
            var unguarded: Set<RuleTrigger<Event>> = []
            for (rule, _, _) in storage.rules(of: index) {
                if unguarded.contains(rule.trigger) {
                    diagnostics.append(
                        Diagnostic(
                            kind: .conflictingTransitions, states: [names[index]], events: ["\(rule.trigger)"],
                            message:
                                "in state '\(names[index])', a rule for event '\(rule.trigger)' can never be taken: an earlier rule for it has no guard"
                        ))
                }
                if rule.guard == nil { unguarded.insert(rule.trigger) }
            }
        }

        diagnostics += timerDiagnostics(names: names)

        for (index, node) in nodes.enumerated() where node.isFinal {
            for (rule, _, _) in storage.rules(of: index) {
                let what = rule.rejection != nil ? "refusal" : "transition"
                diagnostics.append(
                    Diagnostic(
                        kind: .ruleInFinalState, states: [names[index]], events: ["\(rule.trigger)"],
                        message:
                            "state '\(names[index])' is final: its \(what) for event '\(rule.trigger)' never applies, since a final state takes no events"
                    ))
            }
        }

        for (index, node) in nodes.enumerated() where node.kind == .history && node.historyDefault == nil {
            diagnostics.append(
                Diagnostic(
                    kind: .historyWithoutDefault, states: [names[index]], events: [],
                    message:
                        "history state '\(names[index])' has no default: before its parent is first left it enters the parent's initial state"
                ))
        }
        if storage.chart.isChart && nodes.count > StateSet.capacity {
            diagnostics.append(
                Diagnostic(
                    kind: .tooManyStates, states: [], events: [],
                    message:
                        "the statechart has \(nodes.count) states; a statechart holds at most \(StateSet.capacity) (a flat machine has no limit)"
                ))
        }
        return diagnostics + initialDiagnostics(names: names)
    }

    private func timerDiagnostics(names: [String]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (index, node) in storage.nodes.enumerated() {
            for (position, timer) in node.timers.enumerated() {
                var why: String?
                if node.isFinal {
                    why = "the state is final"
                } else if let delay = timer.fixedDelay {
                    // An unguarded timer that is due sooner, or as soon and written earlier, leaves first.
                    let earlier = node.timers.enumerated().first { other in
                        guard other.offset != position, other.element.guard == nil,
                            let otherDelay = other.element.fixedDelay
                        else { return false }
                        return otherDelay < delay || (otherDelay == delay && other.offset < position)
                    }
                    if let earlier, let otherDelay = earlier.element.fixedDelay {
                        why = "a timer after \(otherDelay.label) always leaves first"
                    }
                }
                if let why {
                    diagnostics.append(
                        Diagnostic(
                            kind: .timerNeverFires, states: [names[index], "\(timer.target)"], events: [],
                            message:
                                "the timer after \(timer.delay.label) in state '\(names[index])' never fires: \(why)"))
                }
            }
        }
        return diagnostics
    }

    private func initialDiagnostics(names: [String]) -> [Diagnostic] {
        storage.nodes.indices.filter { storage.nodes[$0].hasInvalidInitial }.compactMap { index in
            guard let initial = storage.nodes[index].initialTarget else { return nil }
            let first = names[initial]
            return Diagnostic(
                kind: .invalidInitial, states: [names[index]], events: [],
                message:
                    "the initial state of '\(names[index])' is not one of its descendants: '\(first)', its first child, is entered instead"
            )
        }
    }

    /// The states a run can enter: from the initial configuration, every transition, timer,
    /// eventless and done rule of a reached state (never of a final one) enters its target with
    /// the target's ancestors and initial (or default) descendants.
    private func reachableStates() -> Set<Int> {
        let shape = storage.chart.shape
        let none: (Int) -> StateSet? = { _ in nil }
        var reached = Set(
            shape.entrySet(targets: [storage.initialIndex], domain: nil, history: none).indices)
        reached.insert(storage.initialIndex)
        var frontier = Array(reached)
        while let index = frontier.popLast() {
            guard !storage.nodes[index].isFinal else { continue }
            var targets = storage.rules(of: index).filter { $0.kind == .leaves }.map(\.target)
            targets += storage.nodes[index].timerTargets
            for target in targets {
                var entered = shape.entrySet(targets: [target], domain: nil, history: none).indices
                entered.append(target)
                for state in entered where reached.insert(state).inserted { frontier.append(state) }
            }
        }
        return reached
    }

    /// A declared, non-final leaf with no transition or timer out of it or any ancestor, outside
    /// any parallel state (a region may rest while the others move).
    private func isDeadEnd(_ index: Int) -> Bool {
        let nodes = storage.nodes
        guard nodes[index].isDeclared, !nodes[index].isFinal, nodes[index].kind == .atomic else { return false }
        var ancestor: Int? = index
        while let state = ancestor {
            if nodes[state].kind == .parallel { return false }
            let leaves =
                storage.rules(of: state).contains { $0.kind == .leaves && $0.target != index }
                || nodes[state].timerTargets.contains { $0 != index }
            if leaves { return false }
            ancestor = nodes[state].parent
        }
        return true
    }
}
