public import StatechartSemantics

/// One microstep of a statechart decided in advance: for a configuration and an event, the
/// actions to run (exits innermost first, the transitions' own, then entries), the configuration it leads to, the states it enters, and the transitions it reports.
@usableFromInline
struct ChartStep: Sendable {
    /// The configuration after the step, as an index into `ChartPlans.configurations`.
    @usableFromInline var next: Int32
    /// The first active leaf after the step: the machine's `state`.
    @usableFromInline let leaf: Int32
    /// The step's actions are `ChartPlans.actions[start ..< end]`.
    @usableFromInline let start: Int32
    @usableFromInline let end: Int32
    /// How many states the step enters: the machine's entry count grows by as many.
    @usableFromInline let enteredCount: Int32
    /// The entered states with timers or effects, whose entry stamps their arming reads, are
    /// `ChartPlans.stamped[stampStart ..< stampEnd]`, each entered `stampOffsets[i]` entries
    /// into the step (1 for the first).
    @usableFromInline let stampStart: Int32
    @usableFromInline let stampEnd: Int32
    /// The rules taken, in order, are `ChartPlans.rules[rulesStart ..< rulesEnd]`; the first is
    /// the transition `send` answers with.
    @usableFromInline let rulesStart: Int32
    @usableFromInline let rulesEnd: Int32
    /// The first rule's source and target (its source when it has none), and whether it has none.
    @usableFromInline let source: Int32
    @usableFromInline let target: Int32
    @usableFromInline let isInternal: Bool
    /// Whether an action of the step raises an event.
    @usableFromInline let raises: Bool
    /// Whether eventless or raised steps may follow (the chart has eventless transitions, or an
    /// action of the step raises).
    @usableFromInline let settles: Bool
}

/// A statechart compiled into plans: for each configuration reachable from the initial one by
/// events whose outcome does not depend on the context, and each event, what `send` does, so
/// that a step is a lookup and one list of actions instead of SCXML's selection, conflict
/// resolution and exit and entry sets.
///
/// A cell (a ``PlanCell``) is a planned step, a refusal for want of any rule, or undecided: the
/// general algorithm decides (a guard or a `Refuse` on the way, a history state to record or
/// enter, a final state entered, a configuration past the limit).
@usableFromInline
struct ChartPlans<Context, Event>: Sendable {
    @usableFromInline let isEnabled: Bool
    @usableFromInline let slotCount: Int
    /// How many configurations are planned: a machine's `run.planned` is checked against it.
    @usableFromInline let configurationCount: Int
    @usableFromInline let configurations: FixedBuffer<StateSet>
    /// The first word of each configuration: all of it for a chart of up to 64 states.
    @usableFromInline let configurationLows: FixedBuffer<UInt64>
    /// The index of each planned configuration, for a machine that left the plans to find its way
    /// back; every value is below `configurationCount`.
    let ids: [StateSet: Int]
    /// Invariant, established here: every `.step` cell indexes `steps`, and every step's `next`
    /// indexes `configurations`; the ranges of a step lie within `actions`, `stamped` and `rules`.
    @usableFromInline let cells: FixedBuffer<PlanCell>
    @usableFromInline let steps: FixedBuffer<ChartStep>
    @usableFromInline let actions: FixedBuffer<Unmanaged<Box<ActionBody<Context, Event>>>>
    @usableFromInline let stamped: FixedBuffer<Int32>
    @usableFromInline let stampOffsets: FixedBuffer<Int32>
    @usableFromInline let rules: FixedBuffer<Int32>

    /// The most configurations planned; a chart with more runs the rest by the general algorithm.
    static var configurationLimit: Int { 256 }

    init(isEnabled: Bool, chart: ChartTables, slotCount: Int, parts: CompiledParts<Event, Context>, arena: BufferArena)
    {
        let shape = chart.shape
        guard isEnabled, slotCount > 0 else {
            self.isEnabled = false
            self.slotCount = 0
            configurationCount = 0
            configurations = arena.buffer([])
            configurationLows = arena.buffer([])
            ids = [:]
            cells = arena.buffer([])
            steps = arena.buffer([])
            actions = arena.buffer([])
            stamped = arena.buffer([])
            stampOffsets = arena.buffer([])
            rules = arena.buffer([])
            return
        }
        var compiler = PlanCompiler(chart: chart, parts: parts)
        var configurations = [chart.initialEntry]
        var ids = [chart.initialEntry: 0]
        var cells: [PlanCell] = []
        var position = 0
        while position < configurations.count {
            let configuration = configurations[position]
            let isDone = shape.isDone(configuration)
            for slot in 0..<slotCount {
                guard !isDone, let outcome = compiler.plan(configuration, slot: slot) else {
                    cells.append(.undecided)
                    continue
                }
                guard let next = outcome else {
                    cells.append(.refused)
                    continue
                }
                var id = ids[next]
                if id == nil && configurations.count < Self.configurationLimit {
                    id = configurations.count
                    ids[next] = configurations.count
                    configurations.append(next)
                }
                guard let id else {
                    compiler.dropLast()
                    cells.append(.undecided)
                    continue
                }
                compiler.finishLast(next: id)
                cells.append(.step(Int32(compiler.steps.count - 1)))
            }
            position += 1
        }
        self.isEnabled = true
        self.slotCount = slotCount
        configurationCount = configurations.count
        self.configurations = arena.buffer(configurations)
        configurationLows = arena.buffer(configurations.map(\.low))
        self.ids = ids
        self.cells = arena.buffer(cells)
        steps = arena.buffer(compiler.steps)
        actions = arena.buffer(compiler.actions)
        stamped = arena.buffer(compiler.stamped)
        stampOffsets = arena.buffer(compiler.stampOffsets)
        rules = arena.buffer(compiler.rules)
    }
}
