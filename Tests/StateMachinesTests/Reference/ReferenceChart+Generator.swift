import BehaviorKitSync

extension ReferenceChart {
    /// A random chart of about `size` states: nesting up to three levels, parallel regions,
    /// shallow and deep history states (in compound states, and in parallel ones with a default),
    /// transitions on `events` events, eventless, targetless, internal and raising transitions,
    /// guards on the context's budget.
    static func random(using random: inout SplitMix64, size: Int = 12, events: Int = 3) -> ReferenceChart {
        var chart = ReferenceChart(nodes: [Node(parent: -1, kind: .compound)], initial: 1)
        var remaining = size

        /// Appends the children of `parent` in document order, each before its own children.
        func addChildren(of parent: Int, depth: Int, regions: Bool) {
            let count = regions ? Int.random(in: 2...3, using: &random) : Int.random(in: 1...3, using: &random)
            let historyAt =
                parent != 0 && Int.random(in: 0..<10, using: &random) < 5
                ? Int.random(in: 0...count, using: &random) : -1
            for position in 0...count {
                if position == historyAt {
                    let index = chart.nodes.count
                    chart.nodes.append(Node(parent: parent, kind: .history(deep: Bool.random(using: &random))))
                    chart.nodes[parent].children.append(index)
                }
                guard position < count else { break }
                let index = chart.nodes.count
                remaining -= 1
                let roll = Int.random(in: 0..<10, using: &random)
                let kind: Kind =
                    depth >= 3 || remaining <= 0 ? .atomic : roll < 5 ? .atomic : roll < 8 ? .compound : .parallel
                chart.nodes.append(Node(parent: parent, kind: kind))
                chart.nodes[parent].children.append(index)
                switch kind {
                case .compound: addChildren(of: index, depth: depth + 1, regions: false)
                case .parallel: addChildren(of: index, depth: depth + 1, regions: true)
                case .atomic, .history: break
                }
            }
        }
        addChildren(of: 0, depth: 0, regions: false)

        let states = chart.nodes.indices.filter { $0 != 0 && !chart.isHistory($0) }
        let targets = Array(chart.nodes.indices.dropFirst())
        func descendants(_ state: Int) -> [Int] { states.filter { chart.isDescendant($0, of: state) } }
        let first = chart.childStates(0)[0]
        chart.initial = Bool.random(using: &random) ? first : states.randomElement(using: &random) ?? first
        for state in chart.nodes.indices.dropFirst() {
            switch chart.nodes[state].kind {
            case .compound where Int.random(in: 0..<10, using: &random) < 3:
                chart.nodes[state].initial = descendants(state).randomElement(using: &random)
            case .history where Bool.random(using: &random) || chart.nodes[chart.nodes[state].parent].kind == .parallel:
                chart.nodes[state].historyDefault = descendants(chart.nodes[state].parent).randomElement(
                    using: &random)
            default: break
            }
        }
        for state in states {
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                let eventless = Int.random(in: 0..<10, using: &random) < 2
                let target = Int.random(in: 0..<10, using: &random) < 2 ? nil : targets.randomElement(using: &random)
                let condition: Condition =
                    eventless
                    ? (Bool.random(using: &random) ? .budgetPositive : .budgetEven)
                    : (Int.random(in: 0..<10, using: &random) < 2 ? .budgetEven : .none)
                let isInternal = target != nil && Int.random(in: 0..<10, using: &random) < 3
                let raises =
                    Int.random(in: 0..<10, using: &random) < 2 ? Int.random(in: 0..<events, using: &random) : nil
                chart.nodes[state].transitions.append(
                    Transition(
                        event: eventless ? nil : Int.random(in: 0..<events, using: &random), target: target,
                        isInternal: isInternal, condition: condition, raises: raises))
            }
        }
        return chart
    }
}
