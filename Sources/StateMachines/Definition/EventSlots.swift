/// Finds an event's index among the events the rules name without comparing or hashing: for an
/// event type of one byte with nothing to retain (an enum without payloads, up to 256 cases), the
/// event's byte indexes a table of 256 entries.
///
/// The table is built only when the named events have distinct bytes. An event with the byte of
/// a named event is that event (a value of such a type is its byte). An event whose byte is not
/// in the table (`-1`) is looked up the slow way, by `==`, so that a type whose `==` is coarser
/// than its bytes still matches as written.
@usableFromInline
struct EventSlots: Sendable {
    /// Whether the table exists: `slot(of:)` may be called only then.
    @usableFromInline let isDirect: Bool
    /// How many events the rules name exactly.
    @usableFromInline let count: Int
    @usableFromInline let table: FixedBuffer<Int32>

    init<Event: Hashable>(events: [Event]) {
        count = events.count
        var slots = [Int32](repeating: -1, count: 256)
        var direct = MemoryLayout<Event>.size == 1 && _isPOD(Event.self) && !events.isEmpty && events.count < 256
        if direct {
            for (index, event) in events.enumerated() {
                let byte = Int(withUnsafeBytes(of: event) { $0[0] })
                if slots[byte] >= 0 {
                    direct = false
                    break
                }
                slots[byte] = Int32(index)
            }
        }
        isDirect = direct
        table = FixedBuffer(direct ? slots : [])
    }

    /// The index of `event` among the named events, or -1; only when `isDirect`.
    @inlinable
    @inline(__always)
    func slot<Event>(of event: Event) -> Int {
        Int(table[Int(withUnsafeBytes(of: event) { $0[0] })])
    }

    func free() {
        table.free()
    }
}

/// One rule of a flat machine as `send` takes it: what follows for the same event in the same
/// state, what kind of step it is, and its actions already laid out in the order they run.
@usableFromInline
struct FlatStep: Sendable {
    /// The next rule (an index into the selection) of the same state for the same event; -1.
    @usableFromInline let next: Int32
    /// 0: leaves the state, 1: internal, 2: refuses.
    @usableFromInline let kind: UInt8
    @usableFromInline let hasGuard: Bool
    @usableFromInline let target: Int32
    /// The step's actions are `FlatPlan.actions[start ..< end]`: for a step that leaves its
    /// state, the state's exit actions and the rule's actions before `split`, the target's entry
    /// actions from `split` on.
    @usableFromInline let start: Int32
    @usableFromInline let split: Int32
    @usableFromInline let end: Int32
}

/// A flat machine compiled for `send`: for state `s` and event slot `e`, the first rule to try is
/// `first[s * slotCount + e]` (-1: none), so that `send` indexes instead of scanning, and a rule's
/// exit, transition and entry actions are one list.
@usableFromInline
struct FlatPlan<Context, Event>: Sendable {
    /// Whether `send` can take the indexed path: a flat machine whose events have direct slots.
    @usableFromInline let isEnabled: Bool
    @usableFromInline let slotCount: Int
    @usableFromInline let first: FixedBuffer<Int32>
    @usableFromInline let steps: FixedBuffer<FlatStep>
    @usableFromInline let actions: FixedBuffer<Unmanaged<Box<ActionBody<Context, Event>>>>

    /// - Parameters:
    ///   - ruleSlots: the event slot of each rule of the selection (-1: a rule on a kind).
    ///   - ruleActions, entryActions, exitActions: the boxed actions of each rule and state.
    init(
        isEnabled: Bool, slotCount: Int, isFinal: [Bool], ruleStart: [Int], ruleSlots: [Int], ruleKinds: [UInt8],
        ruleTargets: [Int], ruleHasGuard: [Bool], ruleActions: [[Unmanaged<Box<ActionBody<Context, Event>>>]],
        entryActions: [[Unmanaged<Box<ActionBody<Context, Event>>>]],
        exitActions: [[Unmanaged<Box<ActionBody<Context, Event>>>]]
    ) {
        guard isEnabled else {
            self.isEnabled = false
            self.slotCount = 0
            first = FixedBuffer([])
            steps = FixedBuffer([])
            actions = FixedBuffer([])
            return
        }
        var first = [Int32](repeating: -1, count: isFinal.count * slotCount)
        var next = [Int32](repeating: -1, count: ruleSlots.count)
        var actions: [Unmanaged<Box<ActionBody<Context, Event>>>] = []
        var bounds: [(Int32, Int32, Int32)] = []
        for state in isFinal.indices {
            var last = [Int](repeating: -1, count: slotCount)
            for rule in ruleStart[state]..<ruleStart[state + 1] {
                let start = Int32(actions.count)
                if ruleKinds[rule] == 0 { actions += exitActions[state] }
                actions += ruleActions[rule]
                let split = Int32(actions.count)
                if ruleKinds[rule] == 0 { actions += entryActions[ruleTargets[rule]] }
                bounds.append((start, split, Int32(actions.count)))
                // A final state takes no event: its cells stay empty and `send` finds out why.
                let slot = ruleSlots[rule]
                guard slot >= 0, !isFinal[state] else { continue }
                if last[slot] < 0 {
                    first[state * slotCount + slot] = Int32(rule)
                } else {
                    next[last[slot]] = Int32(rule)
                }
                last[slot] = rule
            }
        }
        self.isEnabled = true
        self.slotCount = slotCount
        self.first = FixedBuffer(first)
        self.steps = FixedBuffer(
            ruleSlots.indices.map { rule in
                FlatStep(
                    next: next[rule], kind: ruleKinds[rule], hasGuard: ruleHasGuard[rule],
                    target: Int32(ruleTargets[rule]), start: bounds[rule].0, split: bounds[rule].1,
                    end: bounds[rule].2)
            })
        self.actions = FixedBuffer(actions)
    }

    func free() {
        first.free()
        steps.free()
        actions.free()
    }
}
