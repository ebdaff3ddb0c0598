extension StateMachineDefinition {
    /// The definition as a Mermaid `stateDiagram-v2`: transitions labelled with their event,
    /// guard and actions, timers as `after 5 s`, internal transitions and entry and exit actions
    /// as state descriptions, final states to `[*]`.
    public func mermaid() -> String {
        var lines = ["stateDiagram-v2", "    [*] --> \(id(storage.initialIndex))"]
        for (index, node) in storage.nodes.enumerated() {
            for action in node.entry { lines.append("    \(id(index)) : entry / \(action.name)") }
            for action in node.exit { lines.append("    \(id(index)) : exit / \(action.name)") }
            for effect in node.effects { lines.append("    \(id(index)) : do / \(effect.name)") }
            for rule in rules(of: index) where rule.kind == 1 {
                lines.append("    \(id(index)) : \(label(rule))")
            }
        }
        for (index, node) in storage.nodes.enumerated() {
            for rule in rules(of: index) where rule.kind == 0 {
                lines.append("    \(id(index)) --> \(id(rule.targetIndex)) : \(label(rule))")
            }
            for timer in node.timers {
                lines.append("    \(id(index)) --> \(id(timer.targetIndex)) : \(label(timer))")
            }
            if node.isFinal { lines.append("    \(id(index)) --> [*]") }
        }
        return lines.joined(separator: "\n")
    }

    /// The definition as a Graphviz DOT digraph, with the same labels as ``mermaid()``.
    public func dot() -> String {
        var lines = [
            "digraph StateMachine {", "    rankdir=LR;", "    node [shape=box, style=rounded];",
            "    __start [shape=point];", "    __start -> \(id(storage.initialIndex));",
        ]
        for (index, node) in storage.nodes.enumerated() {
            var details = node.entry.map { "entry / \($0.name)" } + node.exit.map { "exit / \($0.name)" }
            details += node.effects.map { "do / \($0.name)" }
            details += rules(of: index).filter { $0.kind == 1 }.map(label)
            let text = ([storage.states[index]].map { "\($0)" } + details).joined(separator: "\\n")
            let shape = node.isFinal ? ", peripheries=2" : ""
            lines.append("    \(id(index)) [label=\"\(escaped(text))\"\(shape)];")
        }
        for (index, node) in storage.nodes.enumerated() {
            for rule in rules(of: index) where rule.kind == 0 {
                lines.append("    \(id(index)) -> \(id(rule.targetIndex)) [label=\"\(escaped(label(rule)))\"];")
            }
            for timer in node.timers {
                lines.append(
                    "    \(id(index)) -> \(id(timer.targetIndex)) [label=\"\(escaped(label(timer)))\", style=dashed];")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    private func rules(of index: Int) -> ArraySlice<TransitionRule<State, Event, Context>> {
        storage.rules[storage.ruleStart[index]..<storage.ruleStart[index + 1]]
    }

    private func label(_ rule: TransitionRule<State, Event, Context>) -> String {
        var text = "\(rule.event)"
        if let condition = rule.guard { text += " [\(condition.name)]" }
        let actions = rule.actions.map(\.name).filter { $0 != "action" }
        if !actions.isEmpty { text += " / " + actions.joined(separator: ", ") }
        return text
    }

    private func label(_ timer: TimedRule<State, Event, Context>) -> String {
        var text = "after \(timer.delay.label)"
        let actions = timer.actions.map(\.name).filter { $0 != "action" }
        if !actions.isEmpty { text += " / " + actions.joined(separator: ", ") }
        return text
    }

    /// A diagram identifier for a state: its description with anything but letters, digits and
    /// underscores replaced.
    private func id(_ index: Int) -> String {
        let name = "\(storage.states[index])".map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" }
        return name.isEmpty ? "state\(index)" : String(name)
    }

    private func escaped(_ text: String) -> String {
        text.replacingQuotes()
    }
}

extension String {
    fileprivate func replacingQuotes() -> String {
        var result = ""
        for character in self {
            if character == "\"" { result += "\\\"" } else { result.append(character) }
        }
        return result
    }
}
