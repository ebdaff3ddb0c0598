#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One committed step of an instance's history, as a store keeps it: its sequence (the
/// instance's version it made), the event's id when it had one, when it committed, and the
/// encoded ``MachineStep``.
public struct MachineStepRecord: Hashable, Sendable {
    /// The version this step made (1 for the start).
    public var sequence: Int64
    /// The event's id: a step with an id is applied at most once.
    public var eventID: String?
    /// When it committed.
    public var at: Date
    /// The encoded ``MachineStep`` (JSON).
    public var body: [UInt8]

    /// Creates a record.
    public init(sequence: Int64, eventID: String?, at: Date, body: [UInt8]) {
        self.sequence = sequence
        self.eventID = eventID
        self.at = at
        self.body = body
    }
}
