/// What one event does in one configuration once the guards have answered: a refusal, or the
/// rules taken with the states they exit and enter.
enum StepResult {
    /// A refusal's reason, as a Swift expression (`.noTransition`, `.rejected("…")`, …).
    case refused(reason: String)
    case moved(taken: [Int], exits: [Int], entries: [Int], next: [Int])
}

extension ChartModel {
    /// The step once each active leaf has picked its rule (`nil`: every guard of its candidates
    /// failed, or it has none), as `StateMachine.send` takes it.
    func step(event: String, in configuration: [Int], picks: [Int?]) -> StepResult {
        let (selected, rejection) = select(picks, in: configuration)
        guard !selected.isEmpty else {
            if let rejection, let reason = rules[rejection].rejection {
                return .refused(reason: ".rejected(\(reason))")
            }
            var names: [String] = []
            for leaf in leaves(of: configuration) {
                for rule in candidates(for: event, leaf: leaf) {
                    guard let name = rules[rule].guard?.name else { continue }
                    // A statechart names each guard once; a flat machine names each rule's.
                    if isChart && names.contains(name) { continue }
                    names.append(name)
                }
            }
            if names.isEmpty { return .refused(reason: ".noTransition") }
            return .refused(reason: ".guardFailed([\(names.joined(separator: ", "))])")
        }
        let taken = selected.count > 1 ? removingConflicts(selected, in: configuration) : selected
        let (exits, entries, next) = microstep(taken, in: configuration)
        return .moved(taken: taken, exits: exits, entries: entries, next: next)
    }

    /// Every way the guards can answer `event` in `configuration`, in the order StateMachines
    /// asks them (leaf by leaf in document order, each leaf's candidates in order): `visit` gets
    /// the picks of each.
    func forEachChoice(event: String, in configuration: [Int], _ visit: ([Int?]) -> Void) {
        let lists = leaves(of: configuration).map { candidates(for: event, leaf: $0) }
        func choose(_ position: Int, _ picks: [Int?]) {
            guard position < lists.count else { return visit(picks) }
            for rule in lists[position] {
                choose(position + 1, picks + [rule])
                if rules[rule].guard == nil { return }
            }
            choose(position + 1, picks + [nil])
        }
        choose(0, [])
    }
}
