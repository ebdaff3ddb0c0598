import StateMachines

extension ReferenceChart {
    typealias Element = StateElement<Int, Int, DifferentialContext>
    typealias Builder = StateBuilder<Int, Int, DifferentialContext>

    /// The chart written with BehaviorKit's DSL: every state logs its entries and exits, every
    /// transition logs itself, an eventless or raising one spends one of the budget, and a raising
    /// one raises its event while the budget lasts.
    func definition() -> StateMachineDefinition<Int, Int, DifferentialContext> {
        StateMachineDefinition(initial: initial) {
            for child in childStates(0) {
                if nodes[child].kind == .parallel {
                    Parallel(child) { body(child) }
                } else if nodes[child].kind == .compound {
                    In(child, initial: initialTarget(child)) { body(child) }
                } else {
                    In(child) { body(child) }
                }
            }
        }
    }

    private func body(_ state: Int) -> [Element] {
        var parts: [Element] = []
        parts += Builder.buildExpression(Entry("+\(state)") { $0.log.append("+\(state)") })
        parts += Builder.buildExpression(Exit("-\(state)") { $0.log.append("-\(state)") })
        for (index, transition) in nodes[state].transitions.enumerated() {
            let name = "t\(state).\(index)"
            let condition = transition.condition
            let check: Guard<DifferentialContext, Int>? =
                condition == .none
                ? nil : Guard("\(condition)") { (context: DifferentialContext) in context.holds(condition) }
            let spends = transition.spends
            var actions = [
                Action<DifferentialContext, Int>(name) {
                    $0.log.append(name)
                    if spends { $0.budget -= 1 }
                }
            ]
            if let raised = transition.raises {
                actions.append(.raise("raise \(raised)") { context, _ in context.budget > 0 ? raised : nil })
            }
            if let event = transition.event {
                parts += Builder.buildExpression(
                    On(event, to: transition.target, when: check, internal: transition.isInternal, actions: actions))
            } else {
                parts += Builder.buildExpression(
                    Always(to: transition.target, when: check, internal: transition.isInternal, actions: actions))
            }
        }
        for child in nodes[state].children {
            switch nodes[child].kind {
            case .atomic: parts += Builder.buildExpression(In(child) { body(child) })
            case .compound: parts += Builder.buildExpression(In(child, initial: initialTarget(child)) { body(child) })
            case .parallel: parts += Builder.buildExpression(Parallel(child) { body(child) })
            case .history(let deep):
                parts += Builder.buildExpression(
                    History(child, deep ? .deep : .shallow, default: nodes[child].historyDefault))
            }
        }
        return parts
    }
}
