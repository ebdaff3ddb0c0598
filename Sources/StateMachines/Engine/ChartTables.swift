/// The statechart's structure: parents, kinds, descendants as bit sets.
@usableFromInline
struct ChartShape: Sendable {
    @usableFromInline let count: Int
    @usableFromInline let parent: [Int]
    @usableFromInline let kind: [NodeKind]
    @usableFromInline let isFinal: [Bool]
    /// The descendants of `s` are the indices `s + 1 ..< end[s]`.
    @usableFromInline let end: [Int]
    /// The proper descendants of each state, history states left out.
    @usableFromInline let descendants: [StateSet]
    @usableFromInline let childSets: [StateSet]
    @usableFromInline let children: [[Int]]
    /// Every state but the history states: the descendants of the top level.
    @usableFromInline let all: StateSet
    /// The states with no child states: the leaves of a configuration.
    @usableFromInline let atomic: StateSet
    /// The states that own a history state, whose active descendants are recorded on exit.
    @usableFromInline let historyOwners: StateSet
    /// The states with eventless rules.
    @usableFromInline let eventlessOwners: StateSet
    @usableFromInline let historyChildren: [[Int]]
    @usableFromInline let isDeepHistory: [Bool]
    @usableFromInline let historyDefaults: [Int]
    @usableFromInline let initials: [Int]

    init<State, Event, Context>(nodes: [StateNode<State, Event, Context>]) {
        count = nodes.count
        parent = nodes.map(\.parent)
        kind = nodes.map(\.kind)
        isFinal = nodes.map(\.isFinal)
        end = nodes.map(\.end)
        children = nodes.map(\.children)
        historyChildren = nodes.map(\.historyChildren)
        isDeepHistory = nodes.map(\.isDeepHistory)
        historyDefaults = nodes.map(\.historyDefault)
        initials = nodes.map(\.initialTarget)
        var all = StateSet(count: count)
        var atomic = StateSet(count: count)
        var owners = StateSet(count: count)
        var eventlessOwners = StateSet(count: count)
        var descendants: [StateSet] = []
        var childSets: [StateSet] = []
        for index in nodes.indices {
            if nodes[index].kind != .history { all.insert(index) }
            if nodes[index].kind == .atomic { atomic.insert(index) }
            if !nodes[index].historyChildren.isEmpty { owners.insert(index) }
            if !nodes[index].eventlessRules.isEmpty { eventlessOwners.insert(index) }
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
        self.eventlessOwners = eventlessOwners
        self.descendants = descendants
        self.childSets = childSets
    }

    /// Whether `state` is a proper descendant of `ancestor` (`Domain.topLevel`: the top level).
    @inlinable
    func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
        ancestor < 0 ? state >= 0 : state > ancestor && state < end[ancestor]
    }

    /// The states below `ancestor` (`Domain.topLevel`: every state; `Domain.none`: none).
    @inlinable
    func below(_ ancestor: Int) -> StateSet {
        ancestor == Domain.topLevel ? all : ancestor == Domain.none ? StateSet(count: count) : descendants[ancestor]
    }
}

/// The statechart compiled into tables: each rule's transition domain and entry set computed
/// once, as SCXML's Appendix D computes them on every step.
///
/// A rule whose target is a history state enters what the history holds once the rule's own
/// exits have recorded it, so its entry set is computed when it is taken; every other entry set,
/// and every domain, is read from here.
@usableFromInline
struct ChartTables: Sendable {
    /// Whether `send` needs the statechart algorithm: nesting, regions, history, eventless or done
    /// transitions, raised events or rules on event kinds. A flat machine keeps its table walk.
    @usableFromInline let isChart: Bool
    @usableFromInline let shape: ChartShape
    /// Per state, per timer: its domain, entry set, and whether the entry set is computed when the
    /// timer fires (see `plan`); a rule's are in its ``CompiledRule``.
    @usableFromInline let timerDomain: [[Int]]
    @usableFromInline let timerEntry: [[StateSet]]
    @usableFromInline let timerIsDynamic: [[Bool]]
    /// The states entered when the machine starts.
    @usableFromInline let initialEntry: StateSet
    @usableFromInline let hasEventless: Bool
    @usableFromInline let microstepLimit: Int

    init<State, Event, Context>(
        nodes: [StateNode<State, Event, Context>], rules: [TransitionRule<State, Event, Context>], initial: Int,
        hasKinds: Bool, microstepLimit: Int
    ) {
        let shape = ChartShape(nodes: nodes)
        self.shape = shape
        self.microstepLimit = microstepLimit
        hasEventless = nodes.contains { !$0.eventlessRules.isEmpty }
        let raises =
            rules.contains { $0.actions.contains(where: \.raises) }
            || nodes.contains { node in
                (node.entry + node.exit).contains(where: \.raises)
                    || node.timers.contains { $0.actions.contains(where: \.raises) }
            }
        isChart =
            hasKinds || raises || hasEventless
            || nodes.contains { $0.parent >= 0 || $0.kind != .atomic || !$0.doneRules.isEmpty }

        var timerDomain: [[Int]] = []
        var timerEntry: [[StateSet]] = []
        var timerIsDynamic: [[Bool]] = []
        for node in nodes {
            let plans = node.timers.map {
                Self.plan(shape: shape, source: $0.sourceIndex, target: $0.targetIndex, keepsSource: false)
            }
            timerDomain.append(plans.map(\.0))
            timerEntry.append(plans.map(\.1))
            timerIsDynamic.append(plans.map(\.2))
        }
        self.timerDomain = timerDomain
        self.timerEntry = timerEntry
        self.timerIsDynamic = timerIsDynamic
        initialEntry = shape.entrySet(targets: [initial], domain: Domain.topLevel, history: { _ in nil })
    }

    /// A transition's domain and entry set, and whether the entry set must be computed when it is
    /// taken. The domain is the declared target's, a history state's too (see `domain`); the entry
    /// set is computed with no history recorded: right for every target but a history state.
    func plan(source: Int, target: Int, keepsSource: Bool) -> (domain: Int, entry: StateSet, isDynamic: Bool) {
        Self.plan(shape: shape, source: source, target: target, keepsSource: keepsSource)
    }

    private static func plan(
        shape: ChartShape, source: Int, target: Int, keepsSource: Bool
    ) -> (domain: Int, entry: StateSet, isDynamic: Bool) {
        let domain = shape.domain(source: source, targets: [target], keepsSource: keepsSource)
        let entry = shape.entrySet(targets: [target], domain: domain, history: { _ in nil })
        return (domain, entry, shape.kind[target] == .history)
    }
}

extension ChartShape {
    /// The states a transition to `target` really enters first: a history state stands for what
    /// it holds, or its default (SCXML's `getEffectiveTargetStates`).
    func effectiveTargets(_ target: Int, history: (Int) -> StateSet?) -> [Int] {
        guard kind[target] == .history else { return [target] }
        if let remembered = history(target) { return remembered.indices }
        return [defaultTarget(ofHistory: target)]
    }

    /// What a history state enters before it holds anything: its default, else its parent's
    /// initial state.
    func defaultTarget(ofHistory history: Int) -> Int {
        if historyDefaults[history] >= 0 { return historyDefaults[history] }
        let owner = parent[history]
        return owner >= 0 && initials[owner] >= 0 ? initials[owner] : owner
    }

    /// SCXML's `getTransitionDomain`: the state whose descendants the transition exits and
    /// enters; -1 for the top level.
    ///
    /// `targets` are the declared targets: a history state, not what it holds. Appendix D reads
    /// the remembered states, and so, when they lie below the history's parent, enters the states
    /// between them and the parent again without exiting them; with the history state itself the
    /// domain is the one a transition to any child of the parent has, and those states are exited
    /// and entered again (as sismic does).
    func domain(source: Int, targets: [Int], keepsSource: Bool) -> Int {
        if keepsSource && kind[source] == .compound && targets.allSatisfy({ isDescendant($0, of: source) }) {
            return source
        }
        var ancestor = parent[source]
        while ancestor >= 0 {
            if kind[ancestor] == .compound && targets.allSatisfy({ isDescendant($0, of: ancestor) }) {
                return ancestor
            }
            ancestor = parent[ancestor]
        }
        return Domain.topLevel
    }

    /// SCXML's `computeEntrySet` for one transition: the targets with their initial (or
    /// remembered) descendants, and the ancestors below `domain` with their other regions.
    func entrySet(targets: [Int], domain: Int, history: (Int) -> StateSet?) -> StateSet {
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
        if kind[state] == .history {
            // All the remembered states first, then their ancestors: an ancestor's other regions
            // are entered at their initial states only when nothing below them is remembered.
            let owner = parent[state]
            let targets = effectiveTargets(state, history: history)
            for target in targets { addDescendants(target, to: &entering, history: history) }
            for target in targets { addAncestors(of: target, below: owner, to: &entering, history: history) }
            return
        }
        entering.insert(state)
        switch kind[state] {
        case .compound:
            let initial = initials[state]
            addDescendants(initial, to: &entering, history: history)
            addAncestors(of: initial, below: state, to: &entering, history: history)
        case .parallel:
            for child in children[state] where !entering.intersects(descendants[child]) {
                addDescendants(child, to: &entering, history: history)
            }
        case .atomic, .history:
            break
        }
    }

    private func addAncestors(
        of state: Int, below domain: Int, to entering: inout StateSet, history: (Int) -> StateSet?
    ) {
        var ancestor = parent[state]
        while ancestor >= 0 && ancestor != domain {
            entering.insert(ancestor)
            if kind[ancestor] == .parallel {
                for child in children[ancestor] where !entering.intersects(descendants[child]) {
                    addDescendants(child, to: &entering, history: history)
                }
            }
            ancestor = parent[ancestor]
        }
    }
}
