#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A durable effect: work that runs while one visit of one state lasts, on any worker, under a
/// lease whose token fences its writes.
public struct MachineEffectRecord: Hashable, Sendable {
    /// The instance whose state started it.
    public var key: MachineKey
    /// Its identity, unique within the instance (`state#index@visit`).
    public var id: String
    /// The encoded effect identity and context on entry (JSON).
    public var body: [UInt8]
    /// The worker that holds it, while one does.
    public var owner: String?
    /// When that worker's lease ends.
    public var leaseExpiresAt: Date?
    /// How many times it was claimed: the token of the latest claim.
    public var attempts: Int

    /// Creates a record that no worker holds yet.
    public init(key: MachineKey, id: String, body: [UInt8]) {
        self.init(key: key, id: id, body: body, owner: nil, leaseExpiresAt: nil, attempts: 0)
    }

    /// Creates a record.
    public init(key: MachineKey, id: String, body: [UInt8], owner: String?, leaseExpiresAt: Date?, attempts: Int) {
        self.key = key
        self.id = id
        self.body = body
        self.owner = owner
        self.leaseExpiresAt = leaseExpiresAt
        self.attempts = attempts
    }
}
