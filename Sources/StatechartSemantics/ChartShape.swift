// A statechart's structure as integer tables, and the parts of W3C SCXML 1.0's Appendix D that read
// only the structure: transition domains, exit sets, entry sets (with history) and history values.
// StateMachines (its interpreter and its plan compiler) and `@StateMachineSwitch` (at build time)
// both read their statecharts through here, so that each rule of the algorithm is written once.

/// What kind of node a state is in the chart.
@usableFromInline
package enum NodeKind: UInt8, Sendable {
    case atomic, compound, parallel, history
}

/// One state of a chart as the algorithm reads it. States are numbered in document order, depth
/// first, so that the descendants of state `s` are the states `s + 1 ..< end`.
@usableFromInline
package struct ChartNode: Sendable {
    /// The parent state; `nil` at the top level.
    @usableFromInline package var parent: Int?
    @usableFromInline package var kind: NodeKind
    @usableFromInline package var isFinal: Bool
    /// The descendants are the states `index + 1 ..< end`.
    @usableFromInline package var end: Int
    /// The child states (regions of a parallel state), not the history states, in document order.
    @usableFromInline package var children: [Int]
    @usableFromInline package var historyChildren: [Int]
    @usableFromInline package var isDeepHistory: Bool
    /// A history state's default target, if it names one.
    @usableFromInline package var historyDefault: Int?
    /// What a compound state enters first (a descendant); `nil` for other kinds.
    @usableFromInline package var initial: Int?

    package init(
        parent: Int?, kind: NodeKind, isFinal: Bool, end: Int, children: [Int], historyChildren: [Int] = [],
        isDeepHistory: Bool = false, historyDefault: Int? = nil, initial: Int?
    ) {
        self.parent = parent
        self.kind = kind
        self.isFinal = isFinal
        self.end = end
        self.children = children
        self.historyChildren = historyChildren
        self.isDeepHistory = isDeepHistory
        self.historyDefault = historyDefault
        self.initial = initial
    }
}

/// A statechart's structure: one record per state, and the sets the algorithm reads as bits.
@usableFromInline
package struct ChartShape: Sendable {
    @usableFromInline package let count: Int
    @usableFromInline package let nodes: [ChartNode]
    /// The proper descendants of each state, history states left out.
    @usableFromInline package let descendants: [StateSet]
    @usableFromInline package let childSets: [StateSet]
    /// Every state but the history states: the descendants of the top level.
    @usableFromInline package let all: StateSet
    /// The states with no child states: the leaves of a configuration.
    @usableFromInline package let atomic: StateSet
    /// The states that own a history state, whose active descendants are recorded on exit.
    @usableFromInline package let historyOwners: StateSet
    /// The final states.
    @usableFromInline package let finals: StateSet

    package init(nodes: [ChartNode]) {
        count = nodes.count
        self.nodes = nodes
        var all = StateSet(count: count)
        var atomic = StateSet(count: count)
        var owners = StateSet(count: count)
        var finals = StateSet(count: count)
        var descendants: [StateSet] = []
        var childSets: [StateSet] = []
        for index in nodes.indices {
            if nodes[index].kind != .history { all.insert(index) }
            if nodes[index].kind == .atomic { atomic.insert(index) }
            if nodes[index].isFinal { finals.insert(index) }
            if !nodes[index].historyChildren.isEmpty { owners.insert(index) }
            var below = StateSet(count: count)
            for descendant in (index + 1)..<Swift.max(index + 1, nodes[index].end)
            where nodes[descendant].kind != .history {
                below.insert(descendant)
            }
            descendants.append(below)
            var childSet = StateSet(count: count)
            for child in nodes[index].children { childSet.insert(child) }
            childSets.append(childSet)
        }
        self.all = all
        self.atomic = atomic
        self.historyOwners = owners
        self.finals = finals
        self.descendants = descendants
        self.childSets = childSets
    }

    /// Whether `state` is a proper descendant of `ancestor` (`nil`: the top level).
    @inlinable
    package func isDescendant(_ state: Int, of ancestor: Int?) -> Bool {
        guard let ancestor else { return true }
        return state > ancestor && state < nodes[ancestor].end
    }

    /// The states below `domain` (`nil`: every state).
    @inlinable
    package func below(_ domain: Int?) -> StateSet {
        guard let domain else { return all }
        return descendants[domain]
    }

    /// The states a transition with domain `domain` exits from `configuration`: the active
    /// descendants of its domain.
    @inlinable
    package func exitSet(domain: Int?, in configuration: StateSet) -> StateSet {
        configuration.intersection(below(domain))
    }

    /// Whether `configuration` holds a top-level final state: the machine is done.
    package func isDone(_ configuration: StateSet) -> Bool {
        var done = false
        configuration.intersection(finals).forEachAscending { if nodes[$0].parent == nil { done = true } }
        return done
    }

    /// The configuration a chart starts in: `initial` with its ancestors and initial descendants.
    package func initialConfiguration(_ initial: Int) -> StateSet {
        entrySet(targets: [initial], domain: nil, history: { _ in nil })
    }

    /// What history state `history` of `owner` records when `owner` is exited from `active`: the
    /// active leaves below the owner for a deep history, its active children for a shallow one.
    @inlinable
    package func historyValue(_ history: Int, owner: Int, active: StateSet) -> StateSet {
        nodes[history].isDeepHistory
            ? active.intersection(atomic).intersection(descendants[owner]) : active.intersection(childSets[owner])
    }

    /// The states a transition to `target` really enters first: a history state stands for what
    /// it holds, or its default (SCXML's `getEffectiveTargetStates`).
    package func effectiveTargets(_ target: Int, history: (Int) -> StateSet?) -> [Int] {
        guard nodes[target].kind == .history else { return [target] }
        if let remembered = history(target) { return remembered.indices }
        return [defaultTarget(ofHistory: target)]
    }

    /// What a history state enters before it holds anything: its default, else its parent's
    /// initial state.
    package func defaultTarget(ofHistory history: Int) -> Int {
        if let target = nodes[history].historyDefault { return target }
        guard let owner = nodes[history].parent else { return history }
        return nodes[owner].initial ?? owner
    }

    /// SCXML's `getTransitionDomain`: the state whose descendants the transition exits and
    /// enters; `nil` for the top level.
    ///
    /// `targets` are the declared targets: a history state, not what it holds. Appendix D reads
    /// the remembered states, and so, when they lie below the history's parent, enters the states
    /// between them and the parent again without exiting them; with the history state itself the
    /// domain is the one a transition to any child of the parent has, and those states are exited
    /// and entered again (as sismic does).
    package func domain(source: Int, targets: [Int], keepsSource: Bool) -> Int? {
        if keepsSource && nodes[source].kind == .compound && targets.allSatisfy({ isDescendant($0, of: source) }) {
            return source
        }
        var ancestor = nodes[source].parent
        while let current = ancestor {
            if nodes[current].kind == .compound && targets.allSatisfy({ isDescendant($0, of: current) }) {
                return current
            }
            ancestor = nodes[current].parent
        }
        return nil
    }

    /// SCXML's `computeEntrySet` for one transition: the targets with their initial (or
    /// remembered) descendants, and the ancestors below `domain` with their other regions.
    package func entrySet(targets: [Int], domain: Int?, history: (Int) -> StateSet?) -> StateSet {
        var entering = StateSet(count: count)
        for target in targets { addDescendants(target, to: &entering, history: history) }
        for target in targets {
            for state in effectiveTargets(target, history: history) {
                addAncestors(of: state, below: domain, to: &entering, history: history)
            }
        }
        return entering
    }

    private func addDescendants(_ state: Int, to entering: inout StateSet, history: (Int) -> StateSet?) {
        if nodes[state].kind == .history {
            // All the remembered states first, then their ancestors: an ancestor's other regions
            // are entered at their initial states only when nothing below them is remembered.
            let owner = nodes[state].parent
            let targets = effectiveTargets(state, history: history)
            for target in targets { addDescendants(target, to: &entering, history: history) }
            for target in targets { addAncestors(of: target, below: owner, to: &entering, history: history) }
            return
        }
        entering.insert(state)
        switch nodes[state].kind {
        case .compound:
            guard let initial = nodes[state].initial else { return }
            addDescendants(initial, to: &entering, history: history)
            addAncestors(of: initial, below: state, to: &entering, history: history)
        case .parallel:
            for child in nodes[state].children where !entering.intersects(descendants[child]) {
                addDescendants(child, to: &entering, history: history)
            }
        case .atomic, .history:
            break
        }
    }

    private func addAncestors(
        of state: Int, below domain: Int?, to entering: inout StateSet, history: (Int) -> StateSet?
    ) {
        var ancestor = nodes[state].parent
        while let current = ancestor, current != domain {
            entering.insert(current)
            if nodes[current].kind == .parallel {
                for child in nodes[current].children where !entering.intersects(descendants[child]) {
                    addDescendants(child, to: &entering, history: history)
                }
            }
            ancestor = nodes[current].parent
        }
    }
}
