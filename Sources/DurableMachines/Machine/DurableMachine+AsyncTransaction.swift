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
            let record = try await transaction.instance(machineKey)
            let planned = try transactionStep(event, on: record, key: machineKey, id: id)
            let result = try await transaction.commit(planned.commit)
            if let step = try answer(result, to: planned, of: event, key: machineKey, instance: record) { return step }
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
        let planned = try startPlan(machineKey, context: context).planned
        guard case .committed = try await transaction.commit(planned.commit),
            let record = try await transaction.instance(machineKey)
        else { throw DurableMachineError.contention(machineKey, attempts: 1) }
        return try instance(from: record)
    }
}
