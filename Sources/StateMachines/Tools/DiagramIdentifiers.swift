/// Identifiers for a definition's states in diagrams and SCXML: each state's description with
/// anything but letters, digits and underscores replaced by `_`, starting with a letter or an
/// underscore, and made unique with a suffix (`on hold` and `on_hold` become `on_hold` and
/// `on_hold_2`).
struct DiagramIdentifiers {
    let ids: [String]

    init(names: [String]) {
        var used: Set<String> = ["_start", "__start"]
        var ids: [String] = []
        for (index, name) in names.enumerated() {
            var base = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
            if base.isEmpty { base = "state\(index)" }
            if let first = base.first, first.isNumber { base = "_" + base }
            var candidate = base
            var suffix = 2
            while used.contains(candidate) {
                candidate = "\(base)_\(suffix)"
                suffix += 1
            }
            used.insert(candidate)
            ids.append(candidate)
        }
        self.ids = ids
    }

    subscript(index: Int) -> String { ids[index] }
}

extension StateMachineDefinition {
    var diagramIdentifiers: DiagramIdentifiers { DiagramIdentifiers(names: storage.states.map { "\($0)" }) }

    /// The rules of state `index` that are drawn as edges (they leave the state).
    func edges(of index: Int) -> [(rule: TransitionRule<State, Event, Context>, target: Int)] {
        storage.rules(of: index).filter { $0.kind == .leaves && $0.rule.target != nil }.map { ($0.rule, $0.target) }
    }

    /// The rules of state `index` drawn inside it: internal transitions.
    func internalRules(of index: Int) -> [TransitionRule<State, Event, Context>] {
        storage.rules(of: index).filter { $0.kind == .stays }.map(\.rule)
    }

    func label(_ rule: TransitionRule<State, Event, Context>) -> String {
        var text = rule.trigger.description
        if let condition = rule.guard { text += " [\(condition.name)]" }
        let actions = rule.actions.map(\.name).filter { $0 != "action" }
        if !actions.isEmpty { text += " / " + actions.joined(separator: ", ") }
        return text
    }

    func label(_ timer: TimedRule<State, Event, Context>) -> String {
        var text = "after \(timer.delay.label)"
        if let condition = timer.guard { text += " [\(condition.name)]" }
        let actions = timer.actions.map(\.name).filter { $0 != "action" }
        if !actions.isEmpty { text += " / " + actions.joined(separator: ", ") }
        return text
    }

    /// Entry, exit and effect lines and internal transitions of state `index`.
    func details(of index: Int) -> [String] {
        let node = storage.nodes[index]
        var lines = node.entry.map { "entry / \($0.name)" } + node.exit.map { "exit / \($0.name)" }
        lines += node.effects.map { "do / \($0.name)" }
        lines += internalRules(of: index).map(label)
        return lines
    }

    /// The states at the top level, in document order.
    var topLevelStates: [Int] { storage.nodes.indices.filter { storage.nodes[$0].parent == nil } }
}
