internal import StatechartSemantics

extension StateMachineDefinition {
    /// The definition as a W3C SCXML 1.0 document: `<state>`, `<parallel>`, `<final>` and
    /// `<history>` elements nested as declared, transitions with their events, `cond` (the
    /// guard's name) and `type="internal"`, eventless and `done.state.ID` transitions, raised
    /// events as `<raise>`, timers as a delayed `<send>` on entry cancelled on exit. Named actions
    /// and refusals, which SCXML has no words for, are elements in the `urn:behaviorkit:scxml`
    /// namespace, which the schema allows in executable content.
    ///
    /// ```swift
    /// try definition.scxml().write(toFile: "vehicle.scxml", atomically: true, encoding: .utf8)
    /// ```
    public func scxml(name: String = "StateMachine") -> String {
        let ids = diagramIdentifiers
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:bk="urn:behaviorkit:scxml" version="1.0" "#
                + #"name="\#(xmlEscaped(name))" initial="\#(ids[storage.initialIndex])">"#,
        ]
        for index in topLevelStates { scxmlState(index, ids: ids, indent: "    ", into: &lines) }
        lines.append("</scxml>")
        return lines.joined(separator: "\n")
    }

    private func scxmlState(_ index: Int, ids: DiagramIdentifiers, indent: String, into lines: inout [String]) {
        let node = storage.nodes[index]
        let id = ids[index]
        let inner = indent + "    "
        if node.kind == .history {
            let target = storage.chart.shape.defaultTarget(ofHistory: index)
            lines.append("\(indent)<history id=\"\(id)\" type=\"\(node.isDeepHistory ? "deep" : "shallow")\">")
            lines.append("\(inner)<transition target=\"\(ids[target])\"/>")
            lines.append("\(indent)</history>")
            return
        }
        let element = node.isFinal ? "final" : node.kind == .parallel ? "parallel" : "state"
        var attributes = "id=\"\(id)\""
        if node.kind == .compound, let initial = node.initialTarget, initial != node.children.first {
            attributes += " initial=\"\(ids[initial])\""
        }
        var body: [String] = []
        let timers = node.timers.enumerated().map { (position: $0.offset, timer: $0.element) }
        let entry =
            node.entry.map { scxmlAction($0, indent: inner + "    ") }
            + timers.map { item in
                let delay: String
                switch item.timer.delay {
                case .fixed(let duration): delay = "delay=\"\(duration.scxmlDelay)\""
                case .computed(let name, _): delay = "delayexpr=\"\(xmlEscaped(name))\""
                }
                return
                    "\(inner)    <send event=\"\(timerEvent(id, item.position))\" \(delay) id=\"\(timerID(id, item.position))\"/>"
            }
        let exit =
            timers.map { "\(inner)    <cancel sendid=\"\(timerID(id, $0.position))\"/>" }
            + node.exit.map { scxmlAction($0, indent: inner + "    ") }
        if !entry.isEmpty { body += ["\(inner)<onentry>"] + entry + ["\(inner)</onentry>"] }
        if !exit.isEmpty { body += ["\(inner)<onexit>"] + exit + ["\(inner)</onexit>"] }
        for (rule, target, _) in storage.rules(of: index) {
            body += scxmlTransition(rule, source: index, target: target, ids: ids, indent: inner)
        }
        for item in timers {
            var open = "\(inner)<transition event=\"\(timerEvent(id, item.position))\""
            if let condition = item.timer.guard { open += " cond=\"\(xmlEscaped(condition.name))\"" }
            open += " target=\"\(ids[node.timerTargets[item.position]])\""
            body += scxmlBody(open: open, actions: item.timer.actions, indent: inner)
        }
        for (position, effect) in node.effects.enumerated() {
            body.append("\(inner)<invoke type=\"urn:behaviorkit:effect\" id=\"\(id).effect\(position)\">")
            body.append("\(inner)    <content><bk:effect name=\"\(xmlEscaped(effect.name))\"/></content>")
            body.append("\(inner)</invoke>")
        }
        if !node.isFinal {
            for child in node.children + node.historyChildren {
                scxmlState(child, ids: ids, indent: inner, into: &body)
            }
        }
        if body.isEmpty {
            lines.append("\(indent)<\(element) \(attributes)/>")
        } else {
            lines.append("\(indent)<\(element) \(attributes)>")
            lines += body
            lines.append("\(indent)</\(element)>")
        }
    }

    private func scxmlTransition(
        _ rule: TransitionRule<State, Event, Context>, source: Int, target: Int, ids: DiagramIdentifiers,
        indent: String
    ) -> [String] {
        var open = "\(indent)<transition"
        switch rule.trigger {
        case .event(let event): open += " event=\"\(eventToken("\(event)"))\""
        case .kind(let kind): open += " event=\"\(eventToken(kind))\""
        case .eventless: break
        case .done: open += " event=\"done.state.\(ids[source])\""
        }
        if let condition = rule.guard { open += " cond=\"\(xmlEscaped(condition.name))\"" }
        if rule.target != nil, rule.rejection == nil {
            open += " target=\"\(ids[target])\""
            if rule.keepsSource { open += " type=\"internal\"" }
        }
        if let reason = rule.rejection {
            return [open + ">", "\(indent)    <bk:refuse reason=\"\(xmlEscaped(reason))\"/>", "\(indent)</transition>"]
        }
        return scxmlBody(open: open, actions: rule.actions, indent: indent)
    }

    private func scxmlBody(open: String, actions: [Action<Context, Event>], indent: String) -> [String] {
        if actions.isEmpty { return [open + "/>"] }
        return [open + ">"] + actions.map { scxmlAction($0, indent: indent + "    ") } + ["\(indent)</transition>"]
    }

    private func scxmlAction(_ action: Action<Context, Event>, indent: String) -> String {
        if action.raises, action.name.hasPrefix("raise ") {
            return "\(indent)<raise event=\"\(eventToken(String(action.name.dropFirst(6))))\"/>"
        }
        return "\(indent)<bk:action name=\"\(xmlEscaped(action.name))\"/>"
    }

    private func timerEvent(_ id: String, _ position: Int) -> String { "bk.timer.\(id).\(position)" }
    private func timerID(_ id: String, _ position: Int) -> String { "\(id).timer\(position)" }

    /// An SCXML event name: letters, digits, `-`, `_` and dots between tokens.
    private func eventToken(_ name: String) -> String {
        var token = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
        while token.hasPrefix(".") { token.removeFirst() }
        while token.hasSuffix(".") { token.removeLast() }
        return token.isEmpty ? "_" : token
    }

    private func xmlEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}

extension Duration {
    /// An SCXML delay (`5s`, `250ms`, `0.01ms`): a number and a unit, never an exponent.
    var scxmlDelay: String {
        let (seconds, attoseconds) = components
        if attoseconds == 0 { return "\(seconds)s" }
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        let whole = nanoseconds / 1_000_000
        let fraction = nanoseconds % 1_000_000
        guard fraction != 0 else { return "\(whole)ms" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)ms"
    }
}
