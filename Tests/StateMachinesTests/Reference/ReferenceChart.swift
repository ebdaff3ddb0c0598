/// A statechart as plain data, for the differential test: the reference interpreter runs it as
/// SCXML's Appendix D says, and `definition()` builds the same chart with BehaviorKit's DSL.
///
/// Node 0 is the root (SCXML's `<scxml>` element); the others are numbered in document order
/// (depth first, children in the order written), as BehaviorKit numbers them, and a node's number
/// is its BehaviorKit state.
struct ReferenceChart: Sendable, CustomStringConvertible {
    enum Kind: Equatable, Sendable {
        case atomic, compound, parallel
        case history(deep: Bool)
    }

    /// What a transition's guard reads: nothing, or the context's budget.
    enum Condition: Equatable, Sendable {
        case none, budgetPositive, budgetEven
    }

    struct Transition: Sendable {
        /// `nil` for an eventless transition.
        var event: Int?
        /// `nil` for a targetless transition.
        var target: Int?
        /// SCXML's `type="internal"`.
        var isInternal: Bool
        var condition: Condition
        /// An event the transition raises (while the budget lasts), or `nil`.
        var raises: Int? = nil

        /// Whether taking the transition spends one of the budget: eventless and raising ones do,
        /// so that every chain of them ends.
        var spends: Bool { event == nil || raises != nil }
    }

    struct Node: Sendable {
        /// -1 for the root.
        var parent: Int
        var kind: Kind
        /// The child states and history states, in document order.
        var children: [Int] = []
        /// A compound state's initial state (a descendant); `nil` for its first child state.
        var initial: Int?
        /// A history state's default; `nil` for its parent's initial state.
        var historyDefault: Int?
        var transitions: [Transition] = []
    }

    var nodes: [Node]
    /// The state the chart starts in (the root's initial target).
    var initial: Int

    var isHistory: [Bool] { nodes.map { if case .history = $0.kind { true } else { false } } }

    func isHistory(_ state: Int) -> Bool {
        if case .history = nodes[state].kind { return true }
        return false
    }

    /// The child states of `state`, history states left out.
    func childStates(_ state: Int) -> [Int] { nodes[state].children.filter { !isHistory($0) } }

    /// Whether `state` is a proper descendant of `ancestor`.
    func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
        var current = nodes[state].parent
        while current >= 0 {
            if current == ancestor { return true }
            current = nodes[current].parent
        }
        return false
    }

    /// What a compound state enters first.
    func initialTarget(_ state: Int) -> Int { nodes[state].initial ?? childStates(state)[0] }

    var description: String {
        var lines = ["initial: \(initial)"]
        func describe(_ state: Int, indent: String) {
            let node = nodes[state]
            var head: String
            switch node.kind {
            case .atomic: head = "In(\(state))"
            case .compound: head = "In(\(state), initial: \(initialTarget(state)))"
            case .parallel: head = "Parallel(\(state))"
            case .history(let deep):
                head =
                    "History(\(state), \(deep ? ".deep" : ".shallow"), default: \(node.historyDefault.map(String.init) ?? "nil"))"
            }
            lines.append(indent + head)
            for transition in node.transitions {
                let trigger = transition.event.map { "On(\($0)" } ?? "Always("
                let target = transition.target.map { "to: \($0)" } ?? "to: nil"
                let raise = transition.raises.map { ", raises \($0)" } ?? ""
                lines.append(
                    indent
                        + "    \(trigger), \(target), internal: \(transition.isInternal), \(transition.condition)\(raise))"
                )
            }
            for child in node.children { describe(child, indent: indent + "    ") }
        }
        for child in nodes[0].children { describe(child, indent: "") }
        return lines.joined(separator: "\n")
    }
}

/// The context both machines run on: a budget that eventless and raising transitions spend (so
/// that every chain of them ends), and the log of entries (`+s`), exits (`-s`) and transitions (`t s.i`).
struct DifferentialContext: Equatable, Sendable {
    var budget = 3
    var log: [String] = []

    func holds(_ condition: ReferenceChart.Condition) -> Bool {
        switch condition {
        case .none: true
        case .budgetPositive: budget > 0
        case .budgetEven: budget > 0 && budget % 2 == 0
        }
    }
}
