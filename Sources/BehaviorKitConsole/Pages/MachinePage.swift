import DurableMachines
import Foundation
import HTTPTypes

/// One instance of a durable machine: its states now and its history, drawn on the statechart
/// when the machine was registered with its definition.
enum MachinePage {
    static func render(_ console: JournalConsole, _ request: ConsoleRequest) async throws -> ConsolePage {
        guard let name = request["machine"], let key = request["key"] else {
            throw ConsolePageError(status: .badRequest, message: "machine, key: give both (machine?machine=…&key=…)")
        }
        let machine = try console.machine(named: name)
        let machineKey = MachineKey(machine: name, key: key)
        guard let instance = try await machine.store.instance(machineKey) else {
            throw ConsolePageError(status: .notFound, message: "Durable machine '\(name)' has no instance '\(key)'.")
        }
        let steps = try await machine.store.history(machineKey, after: 0, limit: 1_000)
        let current = Set(instance.states.map(\.state))
        var visited = current
        var html = HTML()
        html.raw("<p>")
        html.text("Version \(instance.version), in ")
        html.element("strong", instance.states.map(\.state).joined(separator: ", "), attributes: "id=\"states\"")
        html.raw("</p>")

        html.element("h2", "History")
        html.raw("<table id=\"history\"><thead><tr><th class=\"number\">#</th><th>At</th><th>Trigger</th>")
        html.raw("<th>Configuration after</th><th>Event id</th></tr></thead><tbody>")
        for step in steps {
            let (trigger, configuration) = describe(step.body)
            visited.formUnion(configuration)
            html.raw("<tr>")
            html.element("td", "\(step.sequence)", attributes: "class=\"number\"")
            html.element("td", ConsoleFormat.time(step.at, now: request.now))
            html.element("td", trigger)
            html.element("td", configuration.joined(separator: ", "))
            html.element("td", step.eventID ?? "—")
            html.raw("</tr>")
        }
        if steps.isEmpty { html.raw("<tr><td colspan=\"5\" class=\"muted\">No step.</td></tr>") }
        html.raw("</tbody></table>")

        if let diagram = machine.diagram {
            html.element("h2", "Statechart")
            html.raw("<p class=\"muted\">Green: the states it is in; blue: the states its history visited.</p>")
            html.raw("<div class=\"chart\" id=\"chart\">")
            for node in diagram.roots { draw(node, current: current, visited: visited, into: &html) }
            html.raw("</div><details><summary>Mermaid</summary><pre>")
            html.text(diagram.mermaid)
            html.raw("</pre></details>")
        }
        return ConsolePage(title: "\(name) \(key)", body: html)
    }

    private static func draw(
        _ node: ConsoleDiagram.Node, current: Set<String>, visited: Set<String>, into html: inout HTML
    ) {
        var classes = ["state"]
        if node.isParallel { classes.append("parallel") }
        if current.contains(node.name) {
            classes.append("current")
        } else if visited.contains(node.name) {
            classes.append("visited")
        }
        html.raw("<div class=\"\(classes.joined(separator: " "))\" data-state=\"\(HTML.escape(node.name))\">")
        html.element(
            "div", node.name + (node.isInitial ? " (initial)" : "") + (node.isFinal ? " (final)" : ""),
            attributes: "class=\"name\"")
        if !node.transitions.isEmpty {
            html.raw("<ul>")
            for transition in node.transitions { html.element("li", transition) }
            html.raw("</ul>")
        }
        if !node.children.isEmpty {
            html.raw("<div class=\"chart\">")
            for child in node.children { draw(child, current: current, visited: visited, into: &html) }
            html.raw("</div>")
        }
        html.raw("</div>")
    }

    /// A stored step's trigger and the states it left the instance in, read from its JSON body.
    static func describe(_ body: [UInt8]) -> (trigger: String, configuration: [String]) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            return ("(\(body.count) bytes)", [])
        }
        let configuration = (object["configuration"] as? [Any])?.map { text($0) } ?? []
        return (text(object["trigger"] as Any), configuration)
    }

    private static func text(_ value: Any) -> String {
        switch value {
        case let string as String: return string
        case let number as NSNumber: return "\(number)"
        case let object as [String: Any]:
            if object.count == 1, let (name, payload) = object.first {
                let fields = (payload as? [String: Any]).map { $0.sorted { $0.key < $1.key }.map { text($0.value) } }
                return ([name] + (fields ?? [])).joined(separator: " ")
            }
            return "{"
                + object.sorted { $0.key < $1.key }.map { "\($0.key): \(text($0.value))" }.joined(separator: ", ")
                + "}"
        case let array as [Any]: return "[" + array.map { text($0) }.joined(separator: ", ") + "]"
        default: return "\(value)"
        }
    }
}
