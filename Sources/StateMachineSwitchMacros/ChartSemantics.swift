import StatechartSemantics

/// What StateMachines does with an event, worked out at build time for one configuration: the
/// same algorithm (W3C SCXML 1.0, Appendix D), from the same code (`StatechartSemantics`), on the
/// same document order, so that the generated `switch` answers as `StateMachine.send` does.
/// Configurations are sorted arrays of state indices here; the algorithm reads them as sets.
extension ChartModel {
    /// The chart's structure as the algorithm reads it (states are numbered depth first, so that
    /// a state's descendants follow it).
    func makeShape() -> ChartShape {
        var ends = nodes.indices.map { $0 + 1 }
        for index in nodes.indices.reversed() {
            if let parent = nodes[index].parent { ends[parent] = Swift.max(ends[parent], ends[index]) }
        }
        return ChartShape(
            nodes: nodes.indices.map { index in
                let node = nodes[index]
                let kind: NodeKind =
                    switch node.kind {
                    case .atomic: .atomic
                    case .compound: .compound
                    case .parallel: .parallel
                    }
                return ChartNode(
                    parent: node.parent, kind: kind, isFinal: node.isFinal, end: ends[index], children: node.children,
                    initial: node.kind == .compound ? node.initial : nil)
            })
    }

    /// `states` as a set of the chart's size.
    func set(_ states: [Int]) -> StateSet {
        var set = StateSet(count: nodes.count)
        for state in states { set.insert(state) }
        return set
    }

    /// The states whose rules an event is offered to in `leaf`: the leaf, then its ancestors.
    func candidateStates(from leaf: Int) -> [Int] { shape.candidateStates(from: leaf) }

    /// A rule's candidates for `event` in an active leaf: the leaf's rules, then its ancestors'.
    func candidates(for event: String, leaf: Int) -> [Int] {
        candidateStates(from: leaf).flatMap { state in nodes[state].rules.filter { rules[$0].event == event } }
    }

    /// The active leaves of `configuration`, in document order.
    func leaves(of configuration: [Int]) -> [Int] { shape.leaves(of: set(configuration)).indices }

    /// Whether the machine is done: a top-level final state is active.
    func isDone(_ configuration: [Int]) -> Bool { shape.isDone(set(configuration)) }

    /// The configuration the definition starts in.
    var initialConfiguration: [Int] { shape.initialConfiguration(initial).indices }

    /// SCXML's `getTransitionDomain` for a rule with a target: `nil` for the top level.
    func domain(of rule: Rule, target: Int) -> Int? {
        shape.domain(source: rule.source, targets: [target], keepsSource: rule.keepsSource)
    }

    /// The active states a rule exits (none without a target).
    func exitSet(of rule: Int, in configuration: StateSet) -> StateSet {
        guard let target = rules[rule].target else { return StateSet(count: nodes.count) }
        return shape.exitSet(domain: domain(of: rules[rule], target: target), in: configuration)
    }

    /// SCXML's `computeEntrySet` for one rule (none without a target).
    func entrySet(of rule: Int) -> StateSet {
        guard let target = rules[rule].target else { return StateSet(count: nodes.count) }
        return shape.entrySet(targets: [target], domain: domain(of: rules[rule], target: target), history: { _ in nil })
    }

    /// The rules the leaves' picks select (SCXML's `selectTransitions`): `picks` holds each active
    /// leaf's pick in document order (`nil`: it picked none), and the first `Refuse` picked.
    func select(_ picks: [Int?], in configuration: [Int]) -> (selected: [Int], rejection: Int?) {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: Swift.max(1, picks.count)) { buffer in
            var position = 0
            let selection = shape.select(in: set(configuration), into: buffer) { _ in
                defer { position += 1 }
                guard position < picks.count, let rule = picks[position] else { return nil }
                return (rule, rules[rule].rejection != nil)
            }
            return (Array(buffer[0..<selection.count]), selection.rejection)
        }
    }

    /// SCXML's `removeConflictingTransitions`: of two rules whose exit sets meet, the one from
    /// the deeper source wins, else the earlier.
    func removingConflicts(_ selected: [Int], in configuration: [Int]) -> [Int] {
        let active = set(configuration)
        return shape.removingConflicts(
            selected, source: { rules[$0].source }, exits: { exitSet(of: $0, in: active) })
    }

    /// One microstep of `taken` (conflicts removed): the states exited innermost first, the
    /// states entered outermost first, and the configuration after.
    func microstep(_ taken: [Int], in configuration: [Int]) -> (exits: [Int], entries: [Int], next: [Int]) {
        let active = set(configuration)
        let (exits, entries, next) = shape.microstep(
            taken, in: active, exits: { exitSet(of: $0, in: active) }, entries: { entrySet(of: $0) })
        return (shape.exitOrder(exits), shape.entryOrder(entries), next.indices)
    }
}
