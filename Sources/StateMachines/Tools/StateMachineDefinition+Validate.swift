extension StateMachineDefinition {
    /// Checks the definition and reports each problem it finds, naming the states and events
    /// involved: unreachable states, dead ends, conflicting unguarded transitions, undeclared
    /// states, and timers that can never fire. An empty result means none was found.
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

        var reachable = Set([storage.initialIndex])
        var frontier = [storage.initialIndex]
        while let index = frontier.popLast() {
            for target in exits(of: index) where reachable.insert(target).inserted {
                frontier.append(target)
            }
        }
        for index in nodes.indices where !reachable.contains(index) && nodes[index].isDeclared {
            diagnostics.append(
                Diagnostic(
                    kind: .unreachableState, states: [names[index]], events: [],
                    message:
                        "state '\(names[index])' cannot be reached from the initial state '\(names[storage.initialIndex])'"
                ))
        }

        for index in nodes.indices where !nodes[index].isFinal && nodes[index].isDeclared {
            if !exits(of: index).contains(where: { $0 != index }) {
                diagnostics.append(
                    Diagnostic(
                        kind: .deadEnd, states: [names[index]], events: [],
                        message: "state '\(names[index])' is not final but has no transition or timer out of it"))
            }
        }

        for index in nodes.indices {
            let rules = storage.rules[storage.ruleStart[index]..<storage.ruleStart[index + 1]]
            var unguarded: Set<Event> = []
            for rule in rules {
                if unguarded.contains(rule.event) {
                    diagnostics.append(
                        Diagnostic(
                            kind: .conflictingTransitions, states: [names[index]], events: ["\(rule.event)"],
                            message:
                                "in state '\(names[index])', a rule for event '\(rule.event)' can never be taken: an earlier rule for it has no guard"
                        ))
                }
                if rule.guard == nil { unguarded.insert(rule.event) }
            }
        }

        for (index, node) in nodes.enumerated() where !node.timers.isEmpty {
            let shortest = node.timers.map(\.delay).min() ?? .zero
            for timer in node.timers where node.isFinal || timer.delay > shortest {
                let why = node.isFinal ? "the state is final" : "a timer after \(shortest.label) always leaves first"
                diagnostics.append(
                    Diagnostic(
                        kind: .timerNeverFires, states: [names[index], "\(timer.target)"], events: [],
                        message: "the timer after \(timer.delay.label) in state '\(names[index])' never fires: \(why)"))
            }
        }
        return diagnostics
    }

    /// The states a state can move to, by event or timer.
    private func exits(of index: Int) -> [Int] {
        let rules = storage.rules[storage.ruleStart[index]..<storage.ruleStart[index + 1]]
        return rules.filter { $0.kind == 0 }.map(\.targetIndex) + storage.nodes[index].timers.map(\.targetIndex)
    }
}
