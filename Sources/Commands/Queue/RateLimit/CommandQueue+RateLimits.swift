extension CommandQueue {
    /// Limits how often the queue starts its records, durably and for the whole fleet: every
    /// worker of every process claims no more than `limit` allows, counted on the journal's
    /// clock; `nil` removes the limit. With `scope` ``QueueRateLimitScope/partition``, each
    /// partition (the `partition` given at enqueue) has a bucket of its own.
    ///
    /// ```swift
    /// try await mail.setRateLimit(try QueueRateLimit(starts: 10, per: .seconds(1), burst: 10))
    /// try await mail.setRateLimit(try QueueRateLimit(starts: 1, per: .seconds(1)), for: .partition)
    /// ```
    ///
    /// The records held back stay queued, and are claimed as the bucket refills; a worker that
    /// finds the queue limited sleeps until the next start is due. See
    /// ``CommandJournalManagement/setRateLimit(_:queue:scope:)``.
    ///
    /// - Throws: ``CommandJournalError/unsupported(operation:)`` on a journal that is no
    ///   ``CommandJournalManagement`` (every journal of BehaviorKit is one).
    public func setRateLimit(_ limit: QueueRateLimit?, for scope: QueueRateLimitScope = .queue) async throws {
        try await management("setting a rate limit").setRateLimit(limit, queue: name, scope: scope)
    }

    /// The queue's rate limit of `scope` now, or `nil`.
    public func rateLimit(for scope: QueueRateLimitScope = .queue) async throws -> QueueRateLimit? {
        try await management("reading a rate limit").rateLimits().first { $0.queue == name && $0.scope == scope }?
            .limit
    }
}
