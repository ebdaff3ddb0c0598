// SCXML's `selectTransitions`, `removeConflictingTransitions` and the sets of one `microstep`, over
// rule indices: the caller says what each rule is (its source, its exit and entry sets) and which
// rule each active leaf picks; the order and the tie-breaks are decided here only.

/// The rules an event selects in a configuration, as SCXML's `selectTransitions` gathers them:
/// each active leaf, in document order, picks the first of its candidates (its own rules, then
/// its ancestors') that is enabled; a rule picked by two leaves is taken once. A pick that
/// refuses the event (`Refuse`) selects nothing: the first one is kept as the reason, for when
/// nothing is selected.
///
/// A caller asks for the leaves one by one (`nextLeaf()`) and adds each leaf's pick (`add`):
/// a loop without a closure, so that what it reads (a machine) is borrowed, never copied.
@usableFromInline
package struct Selection {
    /// The selected rules are `rules[0 ..< count]`, in the order picked.
    @usableFromInline package let rules: UnsafeMutableBufferPointer<Int>
    @usableFromInline package var count = 0
    /// The first refusing rule picked, if any.
    @usableFromInline package var rejection: Int?
    /// The leaves not offered the event yet.
    @usableFromInline package var leaves: StateSet

    /// A selection among the active leaves of `configuration` in `shape`, into `rules`, which
    /// has room for one rule per state.
    @inlinable
    package init(_ configuration: StateSet, in shape: ChartShape, into rules: UnsafeMutableBufferPointer<Int>) {
        self.rules = rules
        self.leaves = configuration.intersection(shape.atomic)
    }

    /// The next active leaf to offer the event to, in document order; `nil` when all were.
    @inlinable
    @inline(__always)
    package mutating func nextLeaf() -> Int? {
        leaves.popFirst()
    }

    /// Adds a leaf's pick: `rule`, which refuses the event when `refuses`.
    @inlinable
    package mutating func add(_ rule: Int, refuses: Bool) {
        if refuses {
            if rejection == nil { rejection = rule }
            return
        }
        var position = 0
        while position < count {
            if rules[position] == rule { return }
            position &+= 1
        }
        rules[count] = rule
        count &+= 1
    }
}

extension ChartShape {
    /// The active leaves of `configuration`: the states an event is offered to, in document order.
    @inlinable
    package func leaves(of configuration: StateSet) -> StateSet {
        configuration.intersection(atomic)
    }

    /// The states whose rules an event is offered to in `leaf`, in order (SCXML's
    /// `selectTransitions`): the leaf, then its ancestors, innermost first.
    package func candidateStates(from leaf: Int) -> [Int] {
        var states = [leaf]
        var ancestor = nodes[leaf].parent
        while let current = ancestor {
            states.append(current)
            ancestor = nodes[current].parent
        }
        return states
    }

    /// SCXML's `selectTransitions` with a closure: offers each active leaf of `configuration` to
    /// `pick`, which returns the leaf's first enabled candidate and whether it refuses the event.
    package func select(
        in configuration: StateSet, into rules: UnsafeMutableBufferPointer<Int>,
        pick: (_ leaf: Int) -> (rule: Int, refuses: Bool)?
    ) -> Selection {
        var selection = Selection(configuration, in: self, into: rules)
        while let leaf = selection.nextLeaf() {
            if let picked = pick(leaf) { selection.add(picked.rule, refuses: picked.refuses) }
        }
        return selection
    }

    /// SCXML's `removeConflictingTransitions` in place on `rules[0 ..< count]`: of two rules whose
    /// exit sets meet, the one from the deeper source wins (it is a descendant of the other's),
    /// else the earlier in document order. Returns how many rules are kept, in order, at the front.
    @inlinable
    package func removeConflicts(
        _ rules: UnsafeMutableBufferPointer<Int>, count: Int, source: (Int) -> Int, exits: (Int) -> StateSet
    ) -> Int {
        var kept = 0
        for candidate in 0..<count {
            let rule = rules[candidate]
            let ruleExits = exits(rule)
            // First pass: is the candidate preempted by a kept rule it does not descend from?
            var preempted = false
            var other = 0
            while other < kept {
                let otherRule = rules[other]
                if ruleExits.intersects(exits(otherRule)) && !isDescendant(source(rule), of: source(otherRule)) {
                    preempted = true
                    break
                }
                other &+= 1
            }
            if preempted { continue }
            // Then the kept rules it conflicts with give way to it.
            var survivors = 0
            other = 0
            while other < kept {
                let otherRule = rules[other]
                if !ruleExits.intersects(exits(otherRule)) {
                    rules[survivors] = otherRule
                    survivors &+= 1
                }
                other &+= 1
            }
            rules[survivors] = rule
            kept = survivors &+ 1
        }
        return kept
    }

    /// `removeConflicts` on an array.
    package func removingConflicts(
        _ rules: [Int], source: (Int) -> Int, exits: (Int) -> StateSet
    ) -> [Int] {
        var rules = rules
        let kept = rules.withUnsafeMutableBufferPointer {
            removeConflicts($0, count: $0.count, source: source, exits: exits)
        }
        return Array(rules.prefix(kept))
    }

    /// The sets of one microstep of `taken` (conflicts removed) from `configuration`, when no
    /// history is recorded on the way: the union of the exit sets, of the entry sets, and the
    /// configuration after.
    package func microstep(
        _ taken: [Int], in configuration: StateSet, exits: (Int) -> StateSet, entries: (Int) -> StateSet
    ) -> (exits: StateSet, entries: StateSet, next: StateSet) {
        var exitSet = StateSet(count: count)
        var entrySet = StateSet(count: count)
        for rule in taken {
            exitSet.formUnion(exits(rule))
            entrySet.formUnion(entries(rule))
        }
        var next = configuration
        next.subtract(exitSet)
        next.formUnion(entrySet)
        return (exitSet, entrySet, next)
    }
}

extension ChartShape {
    /// Calls `body` with the states of `exits` in the order a microstep exits them: innermost
    /// first (reverse document order, so that a state's descendants come before it).
    @inlinable
    package static func forEachExit(_ exits: StateSet, _ body: (Int) -> Void) {
        exits.forEachDescending(body)
    }

    /// Calls `body` with the states of `entries` in the order a microstep enters them: outermost
    /// first (document order).
    @inlinable
    package static func forEachEntry(_ entries: StateSet, _ body: (Int) -> Void) {
        entries.forEachAscending(body)
    }

    /// The states of `exits` in the order a microstep exits them (see `forEachExit`).
    package func exitOrder(_ exits: StateSet) -> [Int] {
        var order: [Int] = []
        Self.forEachExit(exits) { order.append($0) }
        return order
    }

    /// The states of `entries` in the order a microstep enters them (see `forEachEntry`).
    package func entryOrder(_ entries: StateSet) -> [Int] {
        var order: [Int] = []
        Self.forEachEntry(entries) { order.append($0) }
        return order
    }
}
