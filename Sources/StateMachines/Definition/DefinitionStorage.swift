public import StatechartSemantics

/// What a state holds once its declaration is resolved.
@usableFromInline
struct StateNode<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    var isDeclared = false
    var isFinal = false
    @usableFromInline var kind = NodeKind.atomic
    /// The parent's index; `nil` at the top level.
    @usableFromInline var parent: Int?
    /// The child states (regions of a parallel state), not the history states, in document order.
    var children: [Int] = []
    var historyChildren: [Int] = []
    /// What a compound state enters first (a descendant); `nil` for other kinds.
    var initialTarget: Int?
    /// The descendants are the indices `index + 1 ..< end`: states are numbered in document order.
    var end = 0
    var isDeepHistory = false
    /// Whether the declaration named an `initial` that is not a descendant.
    var hasInvalidInitial = false
    /// A history state's default target, if it names one.
    var historyDefault: Int?
    var entry: [Action<Context, Event>] = []
    var exit: [Action<Context, Event>] = []
    @usableFromInline var timers: [TimedRule<State, Event, Context>] = []
    /// The state each timer enters, as `timers` orders them.
    @usableFromInline var timerTargets: [Int] = []
    @usableFromInline var effects: [Effect<State, Event, Context>] = []
    /// Indices into `rules` of the state's own rules, by trigger.
    var eventRules: [Int] = []
    @usableFromInline var eventlessRules: [Int] = []
    @usableFromInline var doneRules: [Int] = []
}

/// Where a rule sits among the definition's states and kinds, once they are numbered: what the
/// engine reads besides the public ``TransitionRule`` (see `CompiledRule`).
struct RulePlace {
    let source: Int
    /// The state the rule enters; its source when it has no target.
    let target: Int
    /// The rule's kind among the kinds rules name; `nil` for a rule on an exact event.
    let kindIndex: Int?
}

/// The resolved, index-based form of a definition that machines run on.
///
/// States are numbered in document order (declared states depth first, then states only named
/// as targets), so that a state's descendants follow it. `engine` is the definition compiled for
/// `send` (see ``CompiledDefinition``); its memory is `arena`'s, freed when the storage goes.
@usableFromInline
final class DefinitionStorage<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    @usableFromInline let states: [State]
    let index: [State: Int]
    @usableFromInline let initialIndex: Int
    @usableFromInline let nodes: [StateNode<State, Event, Context>]
    /// Every rule, state by state in document order, in the order written.
    @usableFromInline let rules: [TransitionRule<State, Event, Context>]
    let events: [Event]
    /// Owns every buffer of `engine`: they are freed with it, once.
    let arena: BufferArena
    /// The flat, reference-free form `send` runs on.
    @usableFromInline let engine: CompiledDefinition<State, Event, Context>
    /// What the statechart algorithm needs; `chart.isChart` is false for a flat machine.
    @usableFromInline let chart: ChartTables
    /// Reads an event's kind as an index among the kinds rules name (see ``PayloadEvent``).
    @usableFromInline let kindReader: KindReader<Event>?

    init(initial: State, declarations: [In<State, Event, Context>], microstepLimit: Int) {
        var collected = DraftCollector<State, Event, Context>()
        for declaration in declarations { collected.collect(declaration, parent: nil) }

        var states: [State] = []
        var index: [State: Int] = [:]
        var nodes: [StateNode<State, Event, Context>] = []
        func number(_ state: State, parent: Int?) {
            guard index[state] == nil, let draft = collected.drafts[state] else { return }
            let slot = states.count
            index[state] = slot
            states.append(state)
            var node = StateNode<State, Event, Context>()
            node.isDeclared = true
            node.parent = parent
            node.isFinal = draft.isFinal
            if let history = draft.history {
                node.kind = .history
                node.isDeepHistory = history.deep
            }
            nodes.append(node)
            for child in draft.children { number(child, parent: slot) }
            nodes[slot].end = states.count
        }
        for state in collected.topLevel { number(state, parent: nil) }
        func slot(_ state: State) -> Int {
            if let existing = index[state] { return existing }
            index[state] = states.count
            states.append(state)
            var node = StateNode<State, Event, Context>()
            node.end = states.count
            nodes.append(node)
            return states.count - 1
        }
        let initialIndex = slot(initial)

        var events: [Event] = []
        var seenEvents: Set<Event> = []
        var kinds: [KindKey] = []
        var rules: [TransitionRule<State, Event, Context>] = []
        var places: [RulePlace] = []
        for position in 0..<collected.drafts.count {
            guard position < states.count, let draft = collected.drafts[states[position]] else { continue }
            let source = position
            for child in draft.children {
                guard let childIndex = index[child] else { continue }
                if nodes[childIndex].kind == .history {
                    nodes[source].historyChildren.append(childIndex)
                } else {
                    nodes[source].children.append(childIndex)
                }
            }
            if let history = draft.history, let target = history.defaultTarget {
                nodes[source].historyDefault = slot(target)
            }
            if !nodes[source].children.isEmpty && !nodes[source].isFinal {
                nodes[source].kind = draft.isParallel ? .parallel : .compound
            }
            for element in draft.elements {
                switch element.kind {
                case .rule(let ruleDraft):
                    let rule = TransitionRule(source: states[source], draft: ruleDraft)
                    if case .event(let event) = ruleDraft.match, seenEvents.insert(event).inserted {
                        events.append(event)
                    }
                    var kindIndex: Int?
                    if let key = rule.kindKey {
                        kindIndex = kinds.firstIndex(of: key) ?? kinds.count
                        if kindIndex == kinds.count { kinds.append(key) }
                    }
                    places.append(
                        RulePlace(source: source, target: ruleDraft.target.map(slot) ?? source, kindIndex: kindIndex))
                    switch ruleDraft.match {
                    case .event, .kind: nodes[source].eventRules.append(rules.count)
                    case .eventless: nodes[source].eventlessRules.append(rules.count)
                    case .done: nodes[source].doneRules.append(rules.count)
                    }
                    rules.append(rule)
                case .timer(let timerDraft):
                    nodes[source].timers.append(TimedRule(source: states[source], draft: timerDraft))
                    nodes[source].timerTargets.append(slot(timerDraft.target))
                case .entry(let action): nodes[source].entry.append(action)
                case .exit(let action): nodes[source].exit.append(action)
                case .effect(let effect): nodes[source].effects.append(effect)
                case .child, .history: break
                }
            }
            if nodes[source].kind == .compound {
                let explicit = draft.initial.flatMap { index[$0] }
                let isDescendant = explicit.map { $0 > source && $0 < nodes[source].end } ?? false
                nodes[source].initialTarget = isDescendant ? explicit : nodes[source].children.first
                nodes[source].hasInvalidInitial = draft.initial != nil && !isDescendant
            }
        }

        self.states = states
        self.index = index
        self.initialIndex = initialIndex
        self.nodes = nodes
        self.rules = rules
        self.events = events
        let chart = ChartTables(
            nodes: nodes, rules: rules, initial: initialIndex, hasKinds: !kinds.isEmpty,
            microstepLimit: microstepLimit)
        self.chart = chart
        let arena = BufferArena()
        self.arena = arena
        self.engine = CompiledDefinition(
            states: states, nodes: nodes, rules: rules, places: places, events: events, chart: chart,
            hasKinds: !kinds.isEmpty, arena: arena)
        self.kindReader = kinds.isEmpty ? nil : KindReader.make(Event.self, kinds: kinds.map(\.value))
    }
}

extension DefinitionStorage {
    /// The rules state `index` declares, in the order written, with their places (the engine's
    /// records number the rules as `rules` does).
    func rules(of index: Int) -> [(rule: TransitionRule<State, Event, Context>, target: Int, kind: RuleKind)] {
        rules.indices.filter { engine.rules[$0].source == index }.map {
            (rules[$0], engine.rules[$0].target, engine.rules[$0].kind)
        }
    }
}

/// The declarations gathered by state, before numbering: a state declared twice gets the
/// elements and children of both.
struct DraftCollector<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable> {
    struct Draft {
        var isFinal = false
        var isParallel = false
        var initial: State?
        var elements: [StateElement<State, Event, Context>] = []
        var children: [State] = []
        var history: (deep: Bool, defaultTarget: State?)?
    }

    var drafts: [State: Draft] = [:]
    var topLevel: [State] = []

    mutating func collect(_ declaration: In<State, Event, Context>, parent: State?) {
        let state = declaration.state
        var draft = drafts[state] ?? Draft()
        if drafts[state] == nil {
            if let parent { drafts[parent]?.children.append(state) } else { topLevel.append(state) }
        }
        draft.isFinal = draft.isFinal || declaration.isFinal
        draft.isParallel = draft.isParallel || declaration.isParallel
        if draft.initial == nil { draft.initial = declaration.initial }
        drafts[state] = draft
        for element in declaration.elements {
            switch element.kind {
            case .child(let child):
                collect(child, parent: state)
            case .history(let historyState, let deep, let defaultTarget):
                if drafts[historyState] == nil {
                    drafts[historyState] = Draft(history: (deep, defaultTarget))
                    drafts[state]?.children.append(historyState)
                }
            default:
                drafts[state]?.elements.append(element)
            }
        }
    }
}
