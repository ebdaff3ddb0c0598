/// What a ``QueueRateLimit`` counts: the starts of a whole queue, or those of each of its
/// partitions apart (the `partition` given at enqueue: a customer, a tenant).
public enum QueueRateLimitScope: String, Sendable, Hashable, Codable, CaseIterable {
    /// One bucket for the queue: every start of the queue counts.
    case queue
    /// One bucket for each partition of the queue, each with the limit: a partition's starts
    /// count in its own bucket only; records without a partition are not held by it.
    case partition
}

/// A rate limit kept in a journal: the queue, what it counts, and the limit.
public struct CommandJournalRateLimit: Sendable, Hashable, Codable {
    /// The queue limited.
    public var queue: String
    /// Whether the queue's starts count together or each partition's apart.
    public var scope: QueueRateLimitScope
    /// The limit.
    public var limit: QueueRateLimit

    /// A rate limit of `queue`.
    public init(queue: String, scope: QueueRateLimitScope, limit: QueueRateLimit) {
        self.queue = queue
        self.scope = scope
        self.limit = limit
    }
}
