#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A durable timer: due at an absolute time, for one visit of one state of one instance.
public struct MachineTimerRecord: Hashable, Sendable {
    /// The instance it fires into.
    public var key: MachineKey
    /// Its identity, unique within the instance (`state#index@visit`).
    public var id: String
    /// When it is due.
    public var dueAt: Date
    /// The encoded `TimerIdentity` (JSON).
    public var body: [UInt8]

    /// Creates a record.
    public init(key: MachineKey, id: String, dueAt: Date, body: [UInt8]) {
        self.key = key
        self.id = id
        self.dueAt = dueAt
        self.body = body
    }
}
