import StateMachines

extension DurableMachine {
    /// Sends `event` to `key` inside the application's own database transaction: the step
    /// commits with the application's writes, or not at all.
    ///
    /// A retried request answers the recorded step with ``MachineStep/isReplay`` set: the
    /// application's own writes in the transaction are then a repeat, and it should roll them
    /// back (throw).
    ///
    /// - Throws: ``DurableMachineError/notStarted(_:)``; the transaction's errors.
    @discardableResult
    public func send(
        _ event: Event, to key: String, id: String? = nil, in transaction: some MachineTransaction
    ) throws -> MachineStep<State, Event> {
        let machineKey = try machineKey(key)
        let id = try callerEventID(id)
        let attempts = 16
        for _ in 0..<attempts {
            let record = try transaction.instance(machineKey)
            let planned = try transactionStep(event, on: record, key: machineKey, id: id)
            let result = try transaction.commit(planned.commit)
            if let step = try answer(result, to: planned, of: event, key: machineKey, instance: record) { return step }
        }
        throw DurableMachineError.contention(machineKey, attempts: attempts)
    }

    /// Starts `key` inside the application's own database transaction (see
    /// ``start(_:context:)``): the instance exists once the transaction commits.
    @discardableResult
    public func start(
        _ key: String, context: Context, in transaction: some MachineTransaction
    ) throws -> DurableInstance<State, Context> {
        let machineKey = try machineKey(key)
        if let existing = try transaction.instance(machineKey) { return try instance(from: existing) }
        let planned = try startPlan(machineKey, context: context).planned
        guard case .committed = try transaction.commit(planned.commit),
            let record = try transaction.instance(machineKey)
        else { throw DurableMachineError.contention(machineKey, attempts: 1) }
        return try instance(from: record)
    }

    /// The step sending `event` (with `id`) makes on `record`, the instance `key` as the
    /// application's transaction reads it.
    ///
    /// - Throws: ``DurableMachineError/notStarted(_:)`` when the transaction reads no instance.
    func transactionStep(
        _ event: Event, on record: MachineInstanceRecord?, key: MachineKey, id: String?
    ) throws -> Planned<State, Event> {
        guard let record, let planned = try step(.event(event), on: record, eventID: id) else {
            throw DurableMachineError.notStarted(key)
        }
        return planned
    }

    /// What the transaction's commit of `planned` answers: its step; the step recorded for an
    /// event sent before (a replay); `nil` when another writer committed first, to plan again.
    func answer(
        _ result: MachineCommitResult, to planned: Planned<State, Event>, of event: Event, key: MachineKey,
        instance record: MachineInstanceRecord?
    ) throws -> MachineStep<State, Event>? {
        switch result {
        case .committed: return planned.step
        case .duplicateEvent(let recorded): return try replay(recorded, of: .event(event), key: key, instance: record)
        case .versionConflict: return nil
        }
    }
}
