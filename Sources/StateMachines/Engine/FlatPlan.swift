/// One rule of a flat machine as `send` takes it: what follows for the same event in the same
/// state, what kind of step it is, and its actions already laid out in the order they run.
@usableFromInline
struct FlatStep<Context, Event> {
    /// The next step (an index into `FlatPlan.steps`) of the same state for the same event, if any.
    @usableFromInline let next: Int32?
    @usableFromInline let kind: RuleKind
    /// How many states the step enters: 1 for a step that leaves its state, else 0.
    @usableFromInline let entered: UInt8
    /// The rule's guard, if it has one.
    @usableFromInline let guardBody: Unmanaged<Box<GuardBody<Context, Event>>>?
    /// The rule (an index into `CompiledDefinition.rules`).
    @usableFromInline let rule: Int32
    @usableFromInline let target: Int32
    /// The step's actions are `FlatPlan.actions[start ..< end]`: for a step that leaves its
    /// state, the state's exit actions, the rule's actions, then the target's entry actions.
    @usableFromInline let start: Int32
    @usableFromInline let end: Int32
}

/// A flat machine compiled for `send`: for state `s` and event slot `e`, the first step to try is
/// `first[s * slotCount + e]` (`nil`: none), a pointer into `steps`, so that `send` indexes
/// instead of scanning, and a rule's exit, transition and entry actions are one list. Steps are
/// numbered as the rows of `CompiledDefinition.selection`.
///
/// Invariants, established here: every cell of `first` is `nil` or points into `steps`, and every
/// `next` is `nil` or an index into `steps`; every step's `start ..< end` lies within `actions`.
@usableFromInline
struct FlatPlan<Context, Event>: Sendable {
    /// Whether `send` can take the indexed path: a flat machine whose events have direct slots.
    @usableFromInline let isEnabled: Bool
    @usableFromInline let slotCount: Int
    @usableFromInline let first: FixedBuffer<UnsafeMutablePointer<FlatStep<Context, Event>>?>
    @usableFromInline let steps: FixedBuffer<FlatStep<Context, Event>>
    @usableFromInline let actions: FixedBuffer<Unmanaged<Box<ActionBody<Context, Event>>>>

    init(isEnabled: Bool, slotCount: Int, parts: CompiledParts<Event, Context>, arena: BufferArena) {
        guard isEnabled else {
            self.isEnabled = false
            self.slotCount = 0
            first = arena.buffer([])
            steps = arena.buffer([])
            actions = arena.buffer([])
            return
        }
        let states = parts.stateRecords
        var first = [Int32?](repeating: nil, count: states.count * slotCount)
        var next = [Int32?](repeating: nil, count: parts.selection.count)
        var actions: [Unmanaged<Box<ActionBody<Context, Event>>>] = []
        var bounds: [(Int32, Int32)] = []
        for (state, record) in states.enumerated() {
            var last = [Int?](repeating: nil, count: slotCount)
            for row in record.selectionStart..<record.selectionEnd {
                let rule = parts.rules[parts.selection[row]]
                let start = Int32(actions.count)
                if rule.kind == .leaves { actions += parts.actions(record.exitStart, record.exitEnd) }
                actions += parts.actions(rule.actionStart, rule.actionEnd)
                if rule.kind == .leaves {
                    let target = states[rule.target]
                    actions += parts.actions(target.entryStart, target.entryEnd)
                }
                bounds.append((start, Int32(actions.count)))
                // A final state takes no event: its cells stay empty and `send` finds out why.
                guard let slot = rule.slot, !record.isFinal else { continue }
                if let previous = last[slot] {
                    next[previous] = Int32(row)
                } else {
                    first[state * slotCount + slot] = Int32(row)
                }
                last[slot] = row
            }
        }
        self.isEnabled = true
        self.slotCount = slotCount
        let stepBuffer = arena.buffer(
            parts.selection.indices.map { row in
                let rule = parts.rules[parts.selection[row]]
                return FlatStep(
                    next: next[row], kind: rule.kind, entered: rule.kind == .leaves ? 1 : 0, guardBody: rule.guardBody,
                    rule: Int32(parts.selection[row]),
                    target: Int32(rule.target), start: bounds[row].0, end: bounds[row].1)
            })
        self.steps = stepBuffer
        self.first = arena.buffer(first.map { row in row.map { stepBuffer.base + Int($0) } })
        self.actions = arena.buffer(actions)
    }
}
