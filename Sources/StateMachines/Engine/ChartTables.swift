public import StatechartSemantics

extension ChartShape {
    /// The structure of a definition's states, in the algorithm's terms.
    init<State, Event, Context>(nodes: [StateNode<State, Event, Context>]) {
        self.init(
            nodes: nodes.map { node in
                ChartNode(
                    parent: node.parent, kind: node.kind, isFinal: node.isFinal, end: node.end,
                    children: node.children, historyChildren: node.historyChildren, isDeepHistory: node.isDeepHistory,
                    historyDefault: node.historyDefault, initial: node.initialTarget)
            })
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
    @usableFromInline let timerDomain: [[Int?]]
    @usableFromInline let timerEntry: [[StateSet]]
    @usableFromInline let timerIsDynamic: [[Bool]]
    /// The states entered when the machine starts.
    @usableFromInline let initialEntry: StateSet
    @usableFromInline let hasEventless: Bool
    /// The states with eventless rules.
    @usableFromInline let eventlessOwners: StateSet
    @usableFromInline let microstepLimit: Int

    init<State, Event, Context>(
        nodes: [StateNode<State, Event, Context>], rules: [TransitionRule<State, Event, Context>], initial: Int,
        hasKinds: Bool, microstepLimit: Int
    ) {
        let shape = ChartShape(nodes: nodes)
        self.shape = shape
        self.microstepLimit = microstepLimit
        hasEventless = nodes.contains { !$0.eventlessRules.isEmpty }
        var eventlessOwners = StateSet(count: shape.count)
        for index in nodes.indices where !nodes[index].eventlessRules.isEmpty { eventlessOwners.insert(index) }
        self.eventlessOwners = eventlessOwners
        let raises =
            rules.contains { $0.actions.contains(where: \.raises) }
            || nodes.contains { node in
                (node.entry + node.exit).contains(where: \.raises)
                    || node.timers.contains { $0.actions.contains(where: \.raises) }
            }
        isChart =
            hasKinds || raises || hasEventless
            || nodes.contains { $0.parent != nil || $0.kind != .atomic || !$0.doneRules.isEmpty }

        var timerDomain: [[Int?]] = []
        var timerEntry: [[StateSet]] = []
        var timerIsDynamic: [[Bool]] = []
        for (index, node) in nodes.enumerated() {
            let plans = node.timerTargets.map {
                Self.plan(shape: shape, source: index, target: $0, keepsSource: false)
            }
            timerDomain.append(plans.map(\.0))
            timerEntry.append(plans.map(\.1))
            timerIsDynamic.append(plans.map(\.2))
        }
        self.timerDomain = timerDomain
        self.timerEntry = timerEntry
        self.timerIsDynamic = timerIsDynamic
        initialEntry = shape.initialConfiguration(initial)
    }

    /// A transition's domain and entry set, and whether the entry set must be computed when it is
    /// taken. The domain is the declared target's, a history state's too (see `domain`); the entry
    /// set is computed with no history recorded: right for every target but a history state.
    func plan(source: Int, target: Int, keepsSource: Bool) -> (domain: Int?, entry: StateSet, isDynamic: Bool) {
        Self.plan(shape: shape, source: source, target: target, keepsSource: keepsSource)
    }

    private static func plan(
        shape: ChartShape, source: Int, target: Int, keepsSource: Bool
    ) -> (domain: Int?, entry: StateSet, isDynamic: Bool) {
        let domain = shape.domain(source: source, targets: [target], keepsSource: keepsSource)
        let entry = shape.entrySet(targets: [target], domain: domain, history: { _ in nil })
        return (domain, entry, shape.nodes[target].kind == .history)
    }
}
