public import StatechartSemantics

/// An event waiting on a statechart's internal queue.
@usableFromInline
enum QueuedEvent<Event: Sendable>: Sendable {
    /// Raised by an action.
    case raised(Event)
    /// The state at this index is done.
    case done(Int)
}

/// What a statechart keeps as it runs: the active states, what each history state holds, when
/// each state was entered, and the internal queue. A flat machine keeps it empty.
@usableFromInline
struct ChartRun<Event: Sendable>: Sendable {
    /// Every active state: leaves and their ancestors.
    @usableFromInline var active: StateSet
    /// The machine's entry count when each state was last entered: a timer or effect of an
    /// earlier entry is known stale.
    @usableFromInline var stamps: [UInt64]
    /// What each history state holds (indexed by state; empty until recorded).
    @usableFromInline var history: [StateSet]
    @usableFromInline var hasHistory: [Bool]
    @usableFromInline var queue: [QueuedEvent<Event>] = []
    @usableFromInline var queueHead = 0
    /// Whether a top-level final state was entered.
    @usableFromInline var isDone = false
    /// Where `active` was last seen among the definition's planned configurations (see
    /// `ChartPlans`): the configuration a step left it in, or where it was looked up. A cache,
    /// trusted only once checked against `active` (`StateMachine.plannedIndexIsCurrent`), so that
    /// no step has to say when it stops being true. A machine starts in planned configuration 0.
    @usableFromInline var planned = 0
    /// Whether `active` was looked up among the plans since it last changed, and is not planned:
    /// `send` then goes to the general algorithm without looking it up again.
    @usableFromInline var isOffPlan = false

    init(chart: ChartTables) {
        let count = chart.isChart ? chart.shape.count : 0
        active = StateSet(count: count)
        stamps = Array(repeating: 0, count: count)
        let hasHistoryStates = chart.isChart && !chart.shape.historyOwners.isEmpty
        history = hasHistoryStates ? Array(repeating: StateSet(count: count), count: count) : []
        hasHistory = hasHistoryStates ? Array(repeating: false, count: count) : []
    }

    /// What history state `index` holds, if it holds anything.
    @inlinable
    func remembered(_ index: Int) -> StateSet? {
        index < hasHistory.count && hasHistory[index] ? history[index] : nil
    }

    @inlinable
    var hasQueued: Bool { queueHead < queue.count }

    @inlinable
    mutating func dequeue() -> QueuedEvent<Event>? {
        // One event waiting, the usual case: take it without emptying the array the long way.
        if queueHead == 0 && queue.count == 1 { return queue.removeLast() }
        guard queueHead < queue.count else { return nil }
        let next = queue[queueHead]
        queueHead += 1
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        }
        return next
    }

    @inlinable
    mutating func clearQueue() {
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
    }
}
