import BehaviorKitSync
public import StateMachines

extension DurableMachine {
    /// Moves the instance `key` to the machine's ``definitionVersion``, in one recorded step
    /// (``MachineTrigger/upgrade(from:to:)``): its snapshot, mapped by `transform` when given
    /// (a state the new version renamed), is restored on the current definition; the timers and
    /// effects of its old version's visits that the new version does not have go, and those the
    /// new version has that the old did not start — all in the step's commit.
    ///
    /// ```swift
    /// let orders = DurableMachine("order", definition: lifecycleV2, version: 2, earlierVersions: [1: lifecycleV1],
    ///                             store: store)
    /// for key in try await orders.keys(in: .placed) { try await orders.upgrade(key) }
    /// ```
    ///
    /// An instance already at the current version, with no `transform`, is left as it stands.
    ///
    /// - Returns: the instance as it stands after the call.
    /// - Throws: ``DurableMachineError/notStarted(_:)``;
    ///   ``DurableMachineError/unknownDefinitionVersion(_:_:)`` when the machine was not given the
    ///   instance's version (its timers and effects must be known to be moved);
    ///   ``DurableMachineError/unknownStates(_:_:)`` when the (mapped) snapshot names states the
    ///   current definition does not have; what `transform` throws.
    @discardableResult
    public func upgrade(
        _ key: String,
        transform: (@Sendable (MachineSnapshot<State, Context>) throws -> MachineSnapshot<State, Context>)? = nil
    ) async throws -> DurableInstance<State, Context> {
        let machineKey = try machineKey(key)
        let attempts = 1_000
        for attempt in 0..<attempts {
            let update = try await store.update(machineKey) { record -> (MachineCommit, MachineStep<State, Event>)? in
                guard let record else { throw DurableMachineError.notStarted(machineKey) }
                let (before, snapshot, version) = try self.restore(record)
                guard version != self.definitionVersion || transform != nil else { return nil }
                let after = try self.restored(
                    try transform?(snapshot) ?? snapshot, of: machineKey, on: self.definition,
                    version: self.definitionVersion)
                let planned = try self.plan(
                    key: machineKey, record: record, before: before, beforeSnapshot: snapshot, after: after,
                    trigger: .upgrade(from: version, to: self.definitionVersion), outcome: nil, transitions: [],
                    eventID: nil, fired: nil, definitionVersion: self.definitionVersion)
                return (planned.commit, planned.step)
            }
            switch update {
            case .committed, .skipped, .duplicateEvent:
                if case .committed = update { commits.signal() }
                guard let record = try await store.instance(machineKey) else {
                    throw DurableMachineError.notStarted(machineKey)
                }
                return try instance(from: record)
            case .versionConflict:
                try await lostRace(attempt, key: machineKey, eventID: nil)
            }
        }
        throw DurableMachineError.contention(machineKey, attempts: attempts)
    }
}
