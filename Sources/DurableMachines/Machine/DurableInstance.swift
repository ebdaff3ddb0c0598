public import StateMachines

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// How one instance of a durable machine stands: its configuration, context and version.
public struct DurableInstance<State: Hashable & Sendable, Context: Sendable>: Sendable {
    /// The instance's key.
    public var key: String
    /// How many steps it committed (1 after the start).
    public var version: Int64
    /// Its configuration, history, context and visits.
    public var snapshot: MachineSnapshot<State, Context>
    /// Its active states with when each was entered.
    public var states: [MachineStateEntry]
    /// When it started.
    public var createdAt: Date
    /// When its last step committed.
    public var updatedAt: Date
    /// The version of the machine's definition it runs: the one it started with, until
    /// ``DurableMachine/upgrade(_:transform:)`` (see ``DurableMachine/definitionVersion``).
    public var definitionVersion: Int = 1

    /// The state it is in (in a statechart, its first active leaf).
    public var state: State { snapshot.state }
    /// Its context.
    public var context: Context { snapshot.context }
    /// Every active state, in document order.
    public var configuration: [State] { snapshot.configuration.isEmpty ? [snapshot.state] : snapshot.configuration }
}

extension DurableInstance: Equatable where Context: Equatable {}
