internal import StatechartSemantics

extension StateMachine {
    /// The configuration, history, context and visits (no timers: a value machine has no clock).
    public var snapshot: MachineSnapshot<State, Context> {
        guard storage.chart.isChart else {
            var snapshot = MachineSnapshot(state: state, context: context)
            snapshot.visits = [epoch]
            return snapshot
        }
        var history: [HistoryRecord<State>] = []
        for index in storage.chart.shape.nodes.map(\.historyChildren).joined() {
            if let remembered = run.remembered(index) {
                history.append(
                    HistoryRecord(history: storage.states[index], states: remembered.indices.map { storage.states[$0] })
                )
            }
        }
        var snapshot = MachineSnapshot(
            state: state, configuration: configuration, history: history, timers: nil, context: context)
        snapshot.visits = run.active.indices.map { run.stamps[$0] }
        return snapshot
    }

    /// Every active state in document order: ancestors before descendants, regions in order.
    /// For a flat machine, the current state alone.
    public var configuration: [State] {
        guard storage.chart.isChart else { return [state] }
        return run.active.indices.map { storage.states[$0] }
    }

    /// Whether `state` is active (SCXML's `In(state)`): the current state or, in a statechart,
    /// any active state or ancestor.
    public func isIn(_ state: State) -> Bool {
        guard let index = storage.index[state] else { return false }
        return storage.chart.isChart ? run.active.contains(index) : index == stateIndex
    }

    /// Puts the machine in the snapshot's configuration, history and context, without running
    /// entry actions (the states were entered before the snapshot was taken).
    ///
    /// When the snapshot has ``MachineSnapshot/visits`` for each state of its configuration, the
    /// machine takes them back, so that the identities of its timers and effects are those
    /// saved; otherwise every state counts as entered anew.
    ///
    /// - Throws: ``StateMachineError/unknownStates(_:)`` naming every state the definition does
    ///   not have, ``StateMachineError/invalidConfiguration(_:)``, or
    ///   ``StateMachineError/unsupportedVersion(_:)``; the machine is then unchanged.
    public mutating func restore(_ snapshot: MachineSnapshot<State, Context>) throws(StateMachineError) {
        guard snapshot.version <= MachineSnapshot<State, Context>.currentVersion else {
            throw .unsupportedVersion(snapshot.version)
        }
        var named = [snapshot.state] + snapshot.configuration
        for record in snapshot.history { named += [record.history] + record.states }
        named += (snapshot.timers ?? []).map { $0.state }  // a key path here is made at each call
        var unknown: [String] = []
        for state in named where storage.index[state] == nil {
            let name = "\(state)"
            if !unknown.contains(name) { unknown.append(name) }
        }
        guard unknown.isEmpty, let leaf = storage.index[snapshot.state] else { throw .unknownStates(unknown) }
        guard storage.chart.isChart else {
            stateIndex = leaf
            context = snapshot.context
            if let visits = snapshot.visits, visits.count == 1 { epoch = visits[0] } else { epoch &+= 1 }
            return
        }
        let shape = storage.chart.shape
        var active = StateSet(count: shape.count)
        if snapshot.configuration.isEmpty {
            active = shape.entrySet(targets: [leaf], domain: nil, history: { _ in nil })
        } else {
            for state in snapshot.configuration {
                var index = storage.index[state]
                while let current = index {
                    active.insert(current)
                    index = shape.nodes[current].parent
                }
            }
        }
        if let problem = problem(with: active) { throw .invalidConfiguration(problem) }
        var run = ChartRun<Event>(chart: storage.chart)
        for record in snapshot.history {
            guard let index = storage.index[record.history], shape.nodes[index].kind == .history else {
                throw .invalidConfiguration("'\(record.history)' is not a history state")
            }
            var remembered = StateSet(count: shape.count)
            for state in record.states { remembered.insert(storage.index[state] ?? 0) }
            run.history[index] = remembered
            run.hasHistory[index] = true
        }
        run.active = active
        if let visits = snapshot.visits, !snapshot.configuration.isEmpty, visits.count == snapshot.configuration.count {
            for (state, visit) in zip(snapshot.configuration, visits) {
                if let index = storage.index[state] { run.stamps[index] = visit }
            }
            epoch = Swift.max(epoch, visits.max() ?? 0)
        } else {
            epoch &+= 1
            active.forEachAscending { run.stamps[$0] = epoch }
        }
        run.isDone = shape.isDone(active)
        self.run = run
        self.context = snapshot.context
        stateIndex = active.intersection(shape.atomic).first ?? leaf
    }

    /// Why `active` cannot be a configuration: a compound state without exactly one active
    /// child, a parallel state with a region inactive, or not exactly one top-level state.
    private func problem(with active: StateSet) -> String? {
        let shape = storage.chart.shape
        let topLevel = active.indices.filter { shape.nodes[$0].parent == nil }
        if topLevel.count != 1 {
            return "\(topLevel.count) top-level states are active: \(topLevel.map { "'\(storage.states[$0])'" })"
        }
        for index in active.indices {
            let children = shape.nodes[index].children.filter(active.contains)
            switch shape.nodes[index].kind {
            case .compound where children.count != 1:
                return "compound state '\(storage.states[index])' has \(children.count) active children"
            case .parallel where children.count != shape.nodes[index].children.count:
                return "parallel state '\(storage.states[index])' has a region inactive"
            case .history:
                return "history state '\(storage.states[index])' cannot be active"
            default: continue
            }
        }
        return nil
    }
}
