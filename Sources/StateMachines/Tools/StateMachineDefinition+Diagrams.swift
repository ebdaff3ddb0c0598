internal import StatechartSemantics

extension StateMachineDefinition {
    /// The definition as a Mermaid `stateDiagram-v2`: transitions labelled with their event,
    /// guard and actions, timers as `after 5 s`, internal transitions and entry and exit actions
    /// as state descriptions, final states to `[*]`. Compound and parallel states are composite
    /// states (regions separated by `--`), history states `H` and `H*` nodes. Each state has a
    /// unique identifier; a state whose name is not one is declared `state "name" as id`.
    public func mermaid() -> String {
        let ids = diagramIdentifiers
        var lines = ["stateDiagram-v2", "    [*] --> \(ids[storage.initialIndex])"]
        if !storage.chart.isChart {
            for index in storage.nodes.indices where ids[index] != "\(storage.states[index])" {
                lines.append("    state \"\(escaped(storage.states[index]))\" as \(ids[index])")
            }
            for index in storage.nodes.indices {
                for detail in details(of: index) { lines.append("    \(ids[index]) : \(detail)") }
            }
        } else {
            for index in topLevelStates { mermaidStructure(of: index, ids: ids, indent: "    ", into: &lines) }
        }
        for (index, node) in storage.nodes.enumerated() {
            for (rule, target) in edges(of: index) {
                lines.append("    \(ids[index]) --> \(ids[target]) : \(label(rule))")
            }
            for (timer, target) in zip(node.timers, node.timerTargets) {
                lines.append("    \(ids[index]) --> \(ids[target]) : \(label(timer))")
            }
            if node.isFinal && node.parent == nil { lines.append("    \(ids[index]) --> [*]") }
        }
        return lines.joined(separator: "\n")
    }

    private func mermaidStructure(of index: Int, ids: DiagramIdentifiers, indent: String, into lines: inout [String]) {
        let node = storage.nodes[index]
        let id = ids[index]
        if id != "\(storage.states[index])" || node.kind == .history {
            let name = node.kind == .history ? (node.isDeepHistory ? "H*" : "H") : escaped(storage.states[index])
            lines.append("\(indent)state \"\(name)\" as \(id)")
        }
        if node.kind == .compound || node.kind == .parallel {
            lines.append("\(indent)state \(id) {")
            let inner = indent + "    "
            if node.kind == .compound, let initial = node.initialTarget {
                lines.append("\(inner)[*] --> \(ids[initial])")
            }
            for (position, child) in (node.children + node.historyChildren).enumerated() {
                if node.kind == .parallel && position > 0 && position < node.children.count {
                    lines.append("\(inner)--")
                }
                mermaidStructure(of: child, ids: ids, indent: inner, into: &lines)
            }
            for child in node.children where storage.nodes[child].isFinal {
                lines.append("\(inner)\(ids[child]) --> [*]")
            }
            lines.append("\(indent)}")
        }
        for detail in details(of: index) { lines.append("\(indent)\(id) : \(detail)") }
    }

    /// The definition as a Graphviz DOT digraph, with the same labels as ``mermaid()``;
    /// compound and parallel states are clusters (regions dashed), entered through a point.
    public func dot() -> String {
        let ids = diagramIdentifiers
        let chart = storage.chart.isChart
        var lines = ["digraph StateMachine {", "    rankdir=LR;"]
        if chart { lines.append("    compound=true;") }
        lines += [
            "    node [shape=box, style=rounded];", "    __start [shape=point];",
            "    __start -> \(ids[storage.initialIndex])\(dotHead(storage.initialIndex, ids));",
        ]
        for index in (chart ? topLevelStates : Array(storage.nodes.indices)) {
            dotStructure(of: index, ids: ids, indent: "    ", into: &lines)
        }
        for (index, node) in storage.nodes.enumerated() {
            for (rule, target) in edges(of: index) {
                lines.append(dotEdge(from: index, to: target, label: label(rule), ids: ids, dashed: false))
            }
            for (timer, target) in zip(node.timers, node.timerTargets) {
                lines.append(dotEdge(from: index, to: target, label: label(timer), ids: ids, dashed: true))
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    private func dotStructure(of index: Int, ids: DiagramIdentifiers, indent: String, into lines: inout [String]) {
        let node = storage.nodes[index]
        let text = (["\(storage.states[index])"] + details(of: index)).joined(separator: "\\n")
        switch node.kind {
        case .compound, .parallel:
            lines.append("\(indent)subgraph cluster_\(ids[index]) {")
            let inner = indent + "    "
            lines.append("\(inner)label=\"\(escaped(text))\";")
            lines.append(
                "\(inner)style=\(node.parent.map { storage.nodes[$0].kind == .parallel } == true ? "dashed" : "rounded");"
            )
            lines.append("\(inner)\(ids[index]) [shape=point];")
            if node.kind == .compound, let initial = node.initialTarget {
                lines.append("\(inner)\(ids[index]) -> \(ids[initial])\(dotHead(initial, ids));")
            }
            for child in node.children + node.historyChildren {
                dotStructure(of: child, ids: ids, indent: inner, into: &lines)
            }
            lines.append("\(indent)}")
        case .history:
            lines.append("\(indent)\(ids[index]) [label=\"\(node.isDeepHistory ? "H*" : "H")\", shape=circle];")
        case .atomic:
            let shape = node.isFinal ? ", peripheries=2" : ""
            lines.append("\(indent)\(ids[index]) [label=\"\(escaped(text))\"\(shape)];")
        }
    }

    private func dotHead(_ index: Int, _ ids: DiagramIdentifiers) -> String {
        isCluster(index) ? " [lhead=cluster_\(ids[index])]" : ""
    }

    private func isCluster(_ index: Int) -> Bool {
        storage.nodes[index].kind == .compound || storage.nodes[index].kind == .parallel
    }

    private func dotEdge(
        from source: Int, to target: Int, label: String, ids: DiagramIdentifiers, dashed: Bool
    ) -> String {
        var attributes = ["label=\"\(escaped(label))\""]
        if dashed { attributes.append("style=dashed") }
        if isCluster(source) { attributes.append("ltail=cluster_\(ids[source])") }
        if isCluster(target) && target != source { attributes.append("lhead=cluster_\(ids[target])") }
        return "    \(ids[source]) -> \(ids[target]) [\(attributes.joined(separator: ", "))];"
    }

    func escaped(_ text: Any) -> String {
        var result = ""
        for character in "\(text)" {
            if character == "\"" { result += "\\\"" } else { result.append(character) }
        }
        return result
    }
}
