import StateMachines

extension DurableMachine {
    /// Sends `event` to `key` inside the application's own database transaction, on a store
    /// whose connections are asynchronous (see ``AsyncMachineTransaction``): the step commits
    /// with the application's writes, or not at all.
    ///
    /// A retried request answers the recorded step with ``MachineStep/isReplay`` set: the
    /// application's own writes in the transaction are then a repeat, and it should roll them
    /// back (throw).
    ///
    /// - Throws: ``DurableMachineError/notStarted(_:)``; the transaction's errors.
    @discardableResult
    public func send(
        _ event: Event, to key: String, id: String? = nil, in transaction: some AsyncMachineTransaction
    ) async throws -> MachineStep<State, Event> {
        let machineKey = try machineKey(key)
        let id = try callerEventID(id)
        let attempts = 16
        for _ in 0..<attempts {
            guard let record = try await transaction.instance(machineKey) else {
                throw DurableMachineError.notStarted(machineKey)
            }
            guard let planned = try step(.event(event), on: record, eventID: id) else {
                throw DurableMachineError.notStarted(machineKey)
            }
            switch try await transaction.commit(planned.commit) {
            case .committed: return planned.step
            case .duplicateEvent(let recorded):
                return try replay(recorded, of: .event(event), key: machineKey, instance: record)
            case .versionConflict: continue
            }
        }
        throw DurableMachineError.contention(machineKey, attempts: attempts)
    }

    /// Starts `key` inside the application's own database transaction (see
    /// ``start(_:context:)``), on a store whose connections are asynchronous: the instance
    /// exists once the transaction commits.
    @discardableResult
    public func start(
        _ key: String, context: Context, in transaction: some AsyncMachineTransaction
    ) async throws -> DurableInstance<State, Context> {
        let machineKey = try machineKey(key)
        if let existing = try await transaction.instance(machineKey) { return try instance(from: existing) }
        let machine = StateMachine(definition, context: context)
        let planned = try plan(
            key: machineKey, record: nil, before: nil, after: machine, trigger: .start, outcome: nil, transitions: [],
            eventID: nil, fired: nil, definitionVersion: definitionVersion)
        guard case .committed = try await transaction.commit(planned.commit),
            let record = try await transaction.instance(machineKey)
        else { throw DurableMachineError.contention(machineKey, attempts: 1) }
        return try instance(from: record)
    }
}
