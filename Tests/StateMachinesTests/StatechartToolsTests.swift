import BehaviorKitTesting
import Foundation
import StateMachines
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Diagrams, SCXML and validation of statecharts, and model-based testing.
struct StatechartToolsTests {
    @Test func mermaidNestsCompoundAndParallelStates() {
        let text = chart.mermaid()
        #expect(text.hasPrefix("stateDiagram-v2\n    [*] --> a\n    state a {\n        [*] --> a1\n"))
        #expect(text.contains("    state p {\n        state r1 {\n            [*] --> r1x\n"))
        #expect(text.contains("        r1 : exit / -r1\n        --\n        state r2 {"))
        #expect(text.contains("        state \"H\" as aHistory\n        state \"H*\" as aDeepHistory\n"))
        #expect(text.contains("            r1end --> [*]"))
        #expect(text.contains("    b --> aHistory : back / back"))
        #expect(text.contains("    p --> end : done / p done"))
        #expect(text.contains("    end --> [*]"))
    }

    @Test func dotDrawsClustersAndHistoryNodes() {
        let text = chart.dot()
        #expect(text.contains("    compound=true;"))
        #expect(text.contains("    __start -> a [lhead=cluster_a];"))
        #expect(text.contains("    subgraph cluster_p {"))
        #expect(
            text.contains(
                "        subgraph cluster_r1 {\n            label=\"r1\\nentry / +r1\\nexit / -r1\";\n            style=dashed;"
            ))
        #expect(text.contains("aDeepHistory [label=\"H*\", shape=circle];"))
        #expect(text.contains("    a -> b [label=\"toB / a→b\", ltail=cluster_a, lhead=cluster_b];"))
    }

    @Test func scxmlHasTheStructureTheSchemaRequires() throws {
        let text = chart.scxml(name: "chart")
        #if canImport(FoundationXML) || canImport(Darwin)
        let document = try XMLDocument(xmlString: text)
        let root = try #require(document.rootElement())
        #expect(root.name == "scxml")
        #expect(root.uri == "http://www.w3.org/2005/07/scxml")
        #expect(attribute("version", of: root) == "1.0")
        #expect(attribute("initial", of: root) == "a")
        let elements = try document.nodes(forXPath: "//*").compactMap { $0 as? XMLElement }
        let ids = elements.compactMap { attribute("id", of: $0) }
        #expect(Set(ids).count == ids.count)  // every id unique
        let stateNames: Set<String> = ["state", "parallel", "final", "history"]
        let stateIDs = Set(
            elements.filter { stateNames.contains($0.name ?? "") }.compactMap { attribute("id", of: $0) })
        #expect(stateIDs == Set(S.allCases.filter { $0 != .unknown }.map(\.rawValue)))
        for element in elements where element.name == "transition" {
            for target in attribute("target", of: element)?.split(separator: " ") ?? [] {
                #expect(stateIDs.contains(String(target)), "transition to unknown id \(target)")
            }
            if let event = attribute("event", of: element) {
                #expect(event.range(of: #"^[A-Za-z0-9_\-]+(\.[A-Za-z0-9_\-]+)*$"#, options: .regularExpression) != nil)
            }
            #expect(["state", "parallel", "history", "final"].contains(element.parent?.name ?? ""))
        }
        for history in elements where history.name == "history" {
            let children = history.children?.compactMap { $0 as? XMLElement } ?? []
            #expect(children.map(\.name) == ["transition"])  // exactly one default transition
            #expect(children.first.flatMap { attribute("event", of: $0) } == nil)
            #expect(["shallow", "deep"].contains(attribute("type", of: history) ?? ""))
        }
        for final in elements where final.name == "final" {
            let children = final.children?.compactMap { ($0 as? XMLElement)?.name } ?? []
            #expect(children.allSatisfy { ["onentry", "onexit", "donedata"].contains($0) })
        }
        for element in elements where element.name == "state" && attribute("initial", of: element) != nil {
            #expect(element.children?.contains { ["state", "parallel", "final"].contains($0.name ?? "") } == true)
        }
        #expect(text.contains(#"<transition event="done.state.p" target="end">"#))
        #expect(text.contains(#"<transition event="inner" target="a22" type="internal">"#))
        #expect(text.contains(#"<history id="aDeepHistory" type="deep">"#))
        #else
        #expect(text.hasPrefix("<?xml"))
        #endif
    }

    @Test func scxmlWritesTimersAsDelayedSendsCancelledOnExit() {
        let vehicle = StateMachineDefinition<Light, Signal, Trace>(initial: .green) {
            In(.green) { After(.microseconds(10), to: .red, when: Guard("quiet") { _ in true }) }
            In(.red) {
                On(.next, to: .green, actions: [.raise(.tick)]); Refuse(.tick, "no <ticks> & such")
            }
        }
        let text = vehicle.scxml()
        #expect(text.contains(#"<send event="bk.timer.green.0" delay="0.01ms" id="green.timer0"/>"#))
        #expect(text.contains(#"<cancel sendid="green.timer0"/>"#))
        #expect(text.contains(#"<transition event="bk.timer.green.0" cond="quiet" target="red"/>"#))
        #expect(text.contains(#"<raise event="tick"/>"#))
        #expect(text.contains(#"<bk:refuse reason="no &lt;ticks&gt; &amp; such"/>"#))
    }

    @Test func validateFindsTheNewProblems() {
        enum N: Hashable, Sendable { case a, a1, a2, h, lost, b, b1 }
        let definition = StateMachineDefinition<N, Signal, Int>(initial: .a) {
            In(.a, initial: .b1) {
                History(.h)
                In(.a1) { On(.next, to: .a2) }
                In(.a2) { On(.next, to: .b) }
            }
            In(.b, initial: .b1) {
                In(.b1) { On(.next, to: .h) }
            }
            In(.lost) { In(.lost) }
        }
        let kinds = definition.validate().map(\.kind)
        #expect(kinds.contains(.historyWithoutDefault))
        #expect(kinds.contains(.invalidInitial))
        #expect(definition.validate().filter { $0.kind == .unreachableState }.map(\.states) == [["lost"]])
    }

    @Test func nestedStatesAreReachableThroughTheirParentsAndOnlyTheUnusedOneIsReported() {
        let diagnostics = chart.validate()
        #expect(diagnostics.map(\.kind) == [.unreachableState, .historyWithoutDefault])
        #expect(diagnostics.map(\.states) == [["b2"], ["aDeepHistory"]])
    }

    @Test func modelCoversEveryTransitionWithShortestPaths() throws {
        let model = StateMachineModel(
            chart, context: Log(),
            events: [.go, .next, .inner, .outer, .toB, .toP, .back, .deep, .finish1, .finish2, .ping])
        #expect(model.missedRules.isEmpty)
        #expect(!model.isTruncated)
        let states = Set(model.shortestPaths().flatMap(\.configuration))
        #expect(states == Set(S.allCases).subtracting([.aHistory, .aDeepHistory, .unknown, .b2]))
        let paths = model.transitionCoverage()
        #expect(paths.count == model.edges.count)
        let toEnd = try #require(paths.first { $0.configuration == [.end] })
        #expect(toEnd.steps == [.send(.toB), .send(.toP), .send(.go), .send(.finish1), .send(.finish2)])
        // Run against a "system" that is a second machine; it must agree with the model at each step.
        var checks = 0
        try model.run(paths, system: { StateMachine(chart, context: Log()) }) { system, step in
            _ = StateMachineModel<S, E, Log, [S]>.apply(step, to: &system)
        } check: { system, machine in
            checks += 1
            #expect(system.configuration == machine.configuration)
        }
        #expect(checks == paths.reduce(0) { $0 + $1.steps.count + 1 })
    }
}

#if canImport(FoundationXML) || canImport(Darwin)
/// An attribute's value (FoundationXML's `attribute(forName:)` misses attributes of elements in
/// a default namespace).
func attribute(_ name: String, of element: XMLElement) -> String? {
    element.attributes?.first { $0.name == name }?.stringValue
}
#endif
