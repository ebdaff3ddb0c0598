/// What StateMachines does with an event, worked out at build time for one configuration: the
/// same algorithm (W3C SCXML 1.0, Appendix D) on the same document order, so that the generated
/// `switch` answers as `StateMachine.send` does.
extension ChartModel {
    /// A rule's candidates for `event` in an active leaf: the leaf's rules, then its ancestors'.
    func candidates(for event: String, leaf: Int) -> [Int] {
        ([leaf] + ancestors(of: leaf)).flatMap { state in nodes[state].rules.filter { rules[$0].event == event } }
    }

    /// The active leaves of `configuration`, in document order.
    func leaves(of configuration: [Int]) -> [Int] { configuration.filter { nodes[$0].kind == .atomic } }

    /// Whether the machine is done: a top-level final state is active.
    func isDone(_ configuration: [Int]) -> Bool {
        configuration.contains { nodes[$0].parent == nil && nodes[$0].isFinal }
    }

    /// SCXML's `getTransitionDomain`: `nil` for the top level.
    func domain(of rule: Rule) -> Int? {
        guard let target = rule.target else { return nil }
        let source = rule.source
        if rule.keepsSource && nodes[source].kind == .compound && isProperDescendant(target, of: source) {
            return source
        }
        for ancestor in ancestors(of: source)
        where nodes[ancestor].kind == .compound && isProperDescendant(target, of: ancestor) {
            return ancestor
        }
        return nil
    }

    /// The active states a rule exits (none without a target).
    func exitSet(of rule: Rule, in configuration: [Int]) -> Set<Int> {
        guard rule.target != nil else { return [] }
        guard let domain = domain(of: rule) else { return Set(configuration) }
        return Set(configuration.filter { isProperDescendant($0, of: domain) })
    }

    /// SCXML's `computeEntrySet` for one rule with a target.
    func entrySet(of rule: Rule) -> Set<Int> {
        guard let target = rule.target else { return [] }
        var entering = Set<Int>()
        addDescendants(target, to: &entering)
        addAncestors(of: target, below: domain(of: rule), to: &entering)
        return entering
    }

    private func hasDescendant(in entering: Set<Int>, below state: Int) -> Bool {
        entering.contains { isProperDescendant($0, of: state) }
    }

    private func addDescendants(_ state: Int, to entering: inout Set<Int>) {
        entering.insert(state)
        switch nodes[state].kind {
        case .compound:
            if let initial = nodes[state].initial {
                addDescendants(initial, to: &entering)
                addAncestors(of: initial, below: state, to: &entering)
            }
        case .parallel:
            for child in nodes[state].children where !hasDescendant(in: entering, below: child) {
                addDescendants(child, to: &entering)
            }
        case .atomic:
            break
        }
    }

    private func addAncestors(of state: Int, below domain: Int?, to entering: inout Set<Int>) {
        var current = nodes[state].parent
        while let ancestor = current, ancestor != domain {
            entering.insert(ancestor)
            if nodes[ancestor].kind == .parallel {
                for child in nodes[ancestor].children where !hasDescendant(in: entering, below: child) {
                    addDescendants(child, to: &entering)
                }
            }
            current = nodes[ancestor].parent
        }
    }

    /// The configuration the definition starts in.
    var initialConfiguration: [Int] {
        var entering = Set<Int>()
        addDescendants(initial, to: &entering)
        addAncestors(of: initial, below: nil, to: &entering)
        return entering.sorted()
    }

    /// SCXML's `removeConflictingTransitions`: of two rules whose exit sets meet, the one from
    /// the deeper source wins, else the earlier.
    func removingConflicts(_ selected: [Int], in configuration: [Int]) -> [Int] {
        var kept: [Int] = []
        for rule in selected {
            let exits = exitSet(of: rules[rule], in: configuration)
            var preempted = false
            var removed: [Int] = []
            for other in kept where !exits.isDisjoint(with: exitSet(of: rules[other], in: configuration)) {
                if isProperDescendant(rules[rule].source, of: rules[other].source) {
                    removed.append(other)
                } else {
                    preempted = true
                    break
                }
            }
            if preempted { continue }
            kept.removeAll { removed.contains($0) }
            kept.append(rule)
        }
        return kept
    }

    /// One microstep of `taken` (conflicts removed): the states exited innermost first, the
    /// states entered outermost first, and the configuration after.
    func microstep(_ taken: [Int], in configuration: [Int]) -> (exits: [Int], entries: [Int], next: [Int]) {
        var exits = Set<Int>()
        var entries = Set<Int>()
        for rule in taken {
            exits.formUnion(exitSet(of: rules[rule], in: configuration))
            entries.formUnion(entrySet(of: rules[rule]))
        }
        let next = Set(configuration).subtracting(exits).union(entries)
        return (exits.sorted(by: >), entries.sorted(), next.sorted())
    }
}
