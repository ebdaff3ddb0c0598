/// What a state holds once its declaration is resolved.
@usableFromInline
struct StateNode<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    var isDeclared = false
    var isFinal = false
    var entry: [Action<Context, Event>] = []
    var exit: [Action<Context, Event>] = []
    var timers: [TimedRule<State, Event, Context>] = []
    @usableFromInline var effects: [Effect<State, Event, Context>] = []
}

/// The resolved, index-based form of a definition that machines run on.
///
/// States are numbered in order of first mention; the rules of state `s` are
/// `rules[ruleStart[s] ..< ruleStart[s + 1]]`, so that `send` scans only the current state's
/// rules and never hashes.
@usableFromInline
final class DefinitionStorage<State: Hashable & Sendable, Event: Hashable & Sendable, Context: Sendable>: Sendable {
    @usableFromInline let states: [State]
    let index: [State: Int]
    @usableFromInline let initialIndex: Int
    @usableFromInline let nodes: [StateNode<State, Event, Context>]
    @usableFromInline let rules: [TransitionRule<State, Event, Context>]
    @usableFromInline let ruleStart: [Int]
    let events: [Event]
    /// The flat, reference-free form `send` runs on.
    @usableFromInline let table: DispatchTable<State, Event, Context>

    init(initial: State, declarations: [In<State, Event, Context>]) {
        var states: [State] = []
        var index: [State: Int] = [:]
        func slot(_ state: State) -> Int {
            if let existing = index[state] { return existing }
            index[state] = states.count
            states.append(state)
            return states.count - 1
        }
        var events: [Event] = []
        var seenEvents: Set<Event> = []
        func mention(_ event: Event) {
            if seenEvents.insert(event).inserted { events.append(event) }
        }

        let initialIndex = slot(initial)
        var nodes: [StateNode<State, Event, Context>] = []
        var rulesByState: [[TransitionRule<State, Event, Context>]] = []
        func grow() {
            while nodes.count < states.count {
                nodes.append(StateNode())
                rulesByState.append([])
            }
        }

        for declaration in declarations {
            let source = slot(declaration.state)
            grow()
            nodes[source].isDeclared = true
            nodes[source].isFinal = nodes[source].isFinal || declaration.isFinal
            for element in declaration.elements {
                switch element.kind {
                case .rule(let event, let target, let condition, let actions, let rejection):
                    mention(event)
                    var rule = TransitionRule(
                        source: declaration.state, event: event, target: target, guard: condition,
                        actions: actions, rejection: rejection)
                    rule.targetIndex = target.map(slot) ?? source
                    grow()
                    rulesByState[source].append(rule)
                case .timer(let delay, let target, let actions):
                    var timer = TimedRule(source: declaration.state, delay: delay, target: target, actions: actions)
                    timer.targetIndex = slot(target)
                    grow()
                    nodes[source].timers.append(timer)
                case .entry(let action):
                    nodes[source].entry.append(action)
                case .exit(let action):
                    nodes[source].exit.append(action)
                case .effect(let effect):
                    nodes[source].effects.append(effect)
                }
            }
        }
        grow()

        var ruleStart: [Int] = [0]
        for rules in rulesByState { ruleStart.append(ruleStart[ruleStart.count - 1] + rules.count) }

        self.states = states
        self.index = index
        self.initialIndex = initialIndex
        self.nodes = nodes
        self.rules = rulesByState.flatMap { $0 }
        self.ruleStart = ruleStart
        self.events = events
        self.table = DispatchTable(states: states, nodes: nodes, rules: self.rules, ruleStart: ruleStart)
    }

    deinit {
        table.free()
    }
}
