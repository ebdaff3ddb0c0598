import StateMachines

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension DurableMachine {
    /// How the instance `key` stands, or `nil` when it was never started.
    ///
    /// - Throws: ``DurableMachineError/unknownStates(_:_:)`` when its snapshot names states the
    ///   definition no longer has (and no `migrate` reads it).
    public func instance(_ key: String) async throws -> DurableInstance<State, Context>? {
        guard let record = try await store.instance(try machineKey(key)) else { return nil }
        return try instance(from: record)
    }

    /// The instances with `state` active, entered before `date` when given, in order of entry,
    /// after `cursor` (the last entry of the previous page) when given.
    ///
    /// ```swift
    /// let stale = try await orders.keys(in: .awaitingPayment, enteredBefore: .now.addingTimeInterval(-3600))
    /// ```
    public func keys(
        in state: State, enteredBefore date: Date? = nil, after cursor: MachineStateEntry? = nil, limit: Int = 100
    ) async throws -> [MachineStateEntry] {
        try await store.keys(machine: name, in: "\(state)", enteredBefore: date, after: cursor, limit: limit)
    }

    /// How many instances have each state active, by state name.
    public func countsByState() async throws -> [String: Int] {
        try await store.countsByState(machine: name)
    }

    /// The steps of `key`, oldest first, after the step `sequence` (0: from the start). A step
    /// the definition cannot read (a state renamed since) is read by the `migrateStep` hook, or
    /// left out with a logged warning.
    public func history(
        of key: String, after sequence: Int64 = 0, limit: Int = 1_000
    ) async throws -> [MachineStep<
        State, Event
    >] {
        let machineKey = try machineKey(key)
        return readableSteps(try await store.history(machineKey, after: sequence, limit: limit), key: machineKey)
    }

    /// Deletes the history committed before `date` (each instance's latest step stays); returns
    /// how many steps went. An event id whose step was pruned is forgotten: sent again, the
    /// event applies again.
    @discardableResult
    public func pruneHistory(before date: Date) async throws -> Int {
        try await store.pruneHistory(machine: name, before: date)
    }
}
