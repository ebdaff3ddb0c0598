public import Commands
public import Foundation

/// A record as `behaviorkit journal … --format json` prints it: its fields by name, times in
/// ISO 8601, payload and output as text when they are UTF-8, and the due time apart from the
/// lease.
public struct JournalRecordView: Codable, Sendable, Hashable {
    /// The record's sequence number.
    public var sequence: Int64
    /// Its idempotency key.
    public var key: String
    /// Its command kind.
    public var kind: String
    /// Its status.
    public var status: String
    /// Its parent's key, for a step.
    public var parentKey: String?
    /// Its queue.
    public var queue: String?
    /// The worker that holds or settled it.
    public var owner: String?
    /// Its priority on its queue: of the due records, claims take the highest first.
    public var priority: Int
    /// How many attempts began: also the fencing token of the last.
    public var attempts: Int
    /// Why it failed.
    public var failureReason: String?
    /// When it falls due, waiting on a queue (or released to be retried).
    public var dueAt: String?
    /// When its worker's lease ends, while one holds it.
    public var leaseExpiresAt: String?
    /// When it was written down.
    public var createdAt: String
    /// When it last changed.
    public var updatedAt: String
    /// Its payload, as text when it is UTF-8.
    public var payload: String?
    /// Its output, as text when it is UTF-8.
    public var output: String?

    /// The view of `record`.
    public init(_ record: CommandJournalRecord) {
        sequence = record.sequence
        key = record.id
        kind = record.entry.kind
        status = record.status.rawValue
        parentKey = record.entry.parentKey
        queue = record.queue
        owner = record.owner
        priority = record.priority
        attempts = record.attempts
        failureReason = record.failureReason
        let pending = record.status == .pending
        dueAt = pending && record.owner == nil ? record.leaseExpiresAt.map(Self.time) : nil
        leaseExpiresAt = pending && record.owner != nil ? record.leaseExpiresAt.map(Self.time) : nil
        createdAt = Self.time(record.createdAt)
        updatedAt = Self.time(record.updatedAt)
        payload = String(validating: record.entry.payload, as: UTF8.self)
        output = record.output.flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// `date` in ISO 8601, to the millisecond, in UTC.
    public static func time(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

/// A record in full as `behaviorkit journal show --format json` prints it.
public struct JournalDetailsView: Codable, Sendable, Hashable {
    /// One attempt.
    public struct Attempt: Codable, Sendable, Hashable {
        /// Its number: the fencing token it ran under.
        public var number: Int
        /// The worker that made it.
        public var owner: String?
        /// What it ended with.
        public var error: String?
        /// When it ended.
        public var endedAt: String?
    }

    /// The record.
    public var record: JournalRecordView
    /// Its children (steps, and the mark of a cancellation).
    public var children: [JournalRecordView]
    /// Its attempts.
    public var attempts: [Attempt]
    /// Why the transaction compensated, or is being rolled back.
    public var compensationReason: String?
    /// Whether an operator cancelled it while it ran.
    public var cancelled: Bool

    /// The view of `details`.
    public init(_ details: CommandJournalRecordDetails) {
        record = JournalRecordView(details.record)
        children = details.children.map(JournalRecordView.init)
        attempts = details.attempts.map {
            Attempt(
                number: $0.number, owner: $0.owner, error: $0.error, endedAt: $0.endedAt.map(JournalRecordView.time))
        }
        compensationReason = details.compensationReason
        cancelled = details.isCancelled
    }
}
