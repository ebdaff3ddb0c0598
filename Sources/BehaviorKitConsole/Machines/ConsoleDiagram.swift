import StateMachines

/// A statechart as the console draws it: nested state boxes (parallel regions side by side) and
/// each state's transitions; states are named as the store names them (`"\(state)"`).
struct ConsoleDiagram: Sendable {
    /// One state and the states inside it.
    struct Node: Sendable {
        var name: String
        var isParallel: Bool
        var isFinal: Bool
        var isInitial: Bool
        var children: [Node]
        var transitions: [String]
    }

    let roots: [Node]
    let mermaid: String

    init<State, Event, Context>(_ definition: StateMachineDefinition<State, Event, Context>) {
        func node(_ state: State, initial: State?) -> Node {
            let children = definition.children(of: state).filter { !definition.isHistory($0) }
            var transitions: [String] = definition.rules(of: state).compactMap { rule in
                guard let target = rule.target else { return nil }
                let trigger: String =
                    switch rule.trigger {
                    case .event(let event): "\(event)"
                    case .kind(let kind): kind
                    case .eventless: "always"
                    case .done: "done"
                    }
                return "\(trigger) → \(target)"
            }
            transitions += definition.timedRules(of: state).map { timer in
                "after \(timer.fixedDelay.map { "\($0)" } ?? "a delay") → \(timer.target)"
            }
            return Node(
                name: "\(state)", isParallel: definition.isParallel(state), isFinal: definition.isFinal(state),
                isInitial: state == initial, children: children.map { node($0, initial: nil) },
                transitions: transitions)
        }
        let top = definition.states.filter { definition.parent(of: $0) == nil && !definition.isHistory($0) }
        roots = top.map { node($0, initial: definition.initialState) }
        mermaid = definition.mermaid()
    }
}
