#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// An instance as a store keeps it: its encoded snapshot, its version, and its active states
/// with when each was entered.
public struct MachineInstanceRecord: Hashable, Sendable {
    /// Which instance.
    public var key: MachineKey
    /// How many steps were committed (the start counts as 1): every commit must name the
    /// version it read, so that two writers never both apply an event to one version.
    public var version: Int64
    /// The encoded `MachineSnapshot` (JSON).
    public var snapshot: [UInt8]
    /// The active states, with when each was entered, in document order.
    public var states: [MachineStateEntry]
    /// When the instance started.
    public var createdAt: Date
    /// When the last step committed.
    public var updatedAt: Date

    /// Creates a record.
    public init(
        key: MachineKey, version: Int64, snapshot: [UInt8], states: [MachineStateEntry], createdAt: Date,
        updatedAt: Date
    ) {
        self.key = key
        self.version = version
        self.snapshot = snapshot
        self.states = states
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// An active state of an instance and when it was entered: what the index of keys by state
/// holds.
public struct MachineStateEntry: Hashable, Sendable, Codable {
    /// The instance's key.
    public var key: String
    /// The state's name (its `description`).
    public var state: String
    /// When the state was entered.
    public var enteredAt: Date

    /// Creates an entry.
    public init(key: String, state: String, enteredAt: Date) {
        self.key = key
        self.state = state
        self.enteredAt = enteredAt
    }
}
