import BehaviorKitSync

/// The rate limits of an in-memory journal, and their buckets, kept under its lock: a claim
/// reads and debits them in the same critical section as it takes records, on the journal's clock.
extension InMemoryCommandJournal {
    /// Sets or removes `queue`'s limit of `scope`; see ``CommandJournalManagement/setRateLimit(_:queue:scope:)``.
    public func setRateLimit(_ limit: QueueRateLimit?, queue: String, scope: QueueRateLimitScope) async throws {
        try StoredKey.check(queue, "queue name")
        let key = RateLimitKey(queue: queue, scope: scope)
        state.withLock { state in
            guard state.rateLimits[key] != limit else { return }
            state.rateLimits[key] = limit
            state.rateBuckets = state.rateBuckets.filter { $0.key.queue != queue || $0.key.scope != scope }
        }
        channel.queueSignal.signal(queue)
    }

    /// The rate limits; see ``CommandJournalManagement/rateLimits()``.
    public func rateLimits() async throws -> [CommandJournalRateLimit] {
        state.withLock { state in
            state.rateLimits.map { CommandJournalRateLimit(queue: $0.key.queue, scope: $0.key.scope, limit: $0.value) }
                .sorted { ($0.queue, $0.scope.rawValue) < ($1.queue, $1.scope.rawValue) }
        }
    }

    /// A queue's limit of one scope.
    struct RateLimitKey: Hashable {
        var queue: String
        var scope: QueueRateLimitScope
    }

    /// A bucket: the queue's (`partition` empty, scope ``QueueRateLimitScope/queue``) or a partition's.
    struct RateBucketKey: Hashable {
        var queue: String
        var scope: QueueRateLimitScope
        var partition: String
    }
}

extension InMemoryCommandJournal.State {
    /// The gate of a claim from `queue` at `now` (milliseconds).
    func rateGate(_ queue: String?, now: Int64) -> QueueRateGate? {
        guard let queue, !rateLimits.isEmpty else { return nil }
        let queueLimit = rateLimits[.init(queue: queue, scope: .queue)]
        let partitionLimit = rateLimits[.init(queue: queue, scope: .partition)]
        guard queueLimit != nil || partitionLimit != nil else { return nil }
        return QueueRateGate(
            queueLimit: queueLimit, partitionLimit: partitionLimit,
            queueBucket: rateBuckets[.init(queue: queue, scope: .queue, partition: "")], now: now)
    }

    /// A partition's bucket of `queue`, as last written.
    func partitionBucket(_ queue: String?, _ partition: String) -> (credit: Int64, at: Int64)? {
        rateBuckets[.init(queue: queue ?? "", scope: .partition, partition: partition)]
    }

    /// Writes the buckets `gate` debited, at `now`.
    mutating func keep(_ gate: QueueRateGate, of queue: String?, now: Int64) {
        guard let queue else { return }
        if let credit = gate.queueCredit {
            rateBuckets[.init(queue: queue, scope: .queue, partition: "")] = (credit, now)
        }
        for (partition, credit) in gate.partitionCreditsToWrite {
            rateBuckets[.init(queue: queue, scope: .partition, partition: partition)] = (credit, now)
        }
    }
}
