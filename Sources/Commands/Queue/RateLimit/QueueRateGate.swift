/// What a claim under rate limits keeps: its queue's bucket and each partition's, read once,
/// debited for each record it takes, and the time until the next start is due when it holds
/// one back. The in-memory and SQLite journals claim through it; PostgreSQL's batch function
/// spells the same in SQL.
package struct QueueRateGate: Sendable {
    /// The queue's bucket and its credit now, when the queue has a limit.
    private var queue: (bucket: QueueRateBucket, credit: Int64)?
    /// The partitions' bucket, when the queue has a limit per partition.
    private let partition: QueueRateBucket?
    /// Each partition's credit now, read when the claim first meets one of its records.
    private var partitionCredits: [String: Int64] = [:]
    /// The partitions whose credit this claim changed.
    private var debited: Set<String> = []
    /// The milliseconds until a start held back by a limit is due, the soonest.
    private var wait: Int64?
    /// Whether the queue's own bucket held back due records: it allows no start before its wait.
    package private(set) var heldByQueueLimit = false
    /// How many starts the queue's bucket was debited for.
    private(set) var started = 0

    /// A gate under `limits`, the queue's bucket holding `credit` at `at` (`nil`: never written).
    package init(
        queueLimit: QueueRateLimit?, partitionLimit: QueueRateLimit?, queueBucket: (credit: Int64, at: Int64)?,
        now: Int64
    ) {
        queue = queueLimit.map { limit in
            let bucket = QueueRateBucket(limit)
            return (bucket, bucket.credit(queueBucket?.credit, at: queueBucket?.at, now: now))
        }
        partition = partitionLimit.map(QueueRateBucket.init)
    }

    /// Whether the queue or its partitions are limited at all.
    package var isLimited: Bool { queue != nil || partition != nil }
    /// Whether the queue's partitions each have a limit.
    package var limitsPartitions: Bool { partition != nil }

    /// `room` cut to the starts the queue's bucket allows now.
    package func room(_ room: Int) -> Int {
        guard let queue else { return room }
        return min(room, queue.bucket.starts(queue.credit))
    }

    /// Whether a record of `name` (a partition, or `nil`) may start now; `stored` reads the
    /// partition's bucket (its credit and when it was written) the first time. Counts the
    /// wait for a partition it holds back.
    package mutating func admits(
        partition name: String?, now: Int64, stored: (String) throws -> (credit: Int64, at: Int64)?
    ) rethrows -> Bool {
        guard let partition, let name else { return true }
        let credit: Int64
        if let known = partitionCredits[name] {
            credit = known
        } else {
            let row = try stored(name)
            credit = partition.credit(row?.credit, at: row?.at, now: now)
            partitionCredits[name] = credit
        }
        guard partition.starts(credit) > 0 else {
            wait = min(wait ?? .max, partition.wait(credit))
            return false
        }
        return true
    }

    /// Debits the buckets for a start of a record of `name` (a partition, or `nil`).
    package mutating func start(partition name: String?) {
        if let current = queue {
            queue = (current.bucket, current.credit - current.bucket.cost)
        }
        started += 1
        if let partition, let name, let credit = partitionCredits[name] {
            partitionCredits[name] = credit - partition.cost
            debited.insert(name)
        }
    }

    /// Counts the wait for the queue's bucket when the claim held back due records for it.
    package mutating func heldBack() {
        guard let queue, queue.bucket.starts(queue.credit) == 0 else { return }
        wait = min(wait ?? .max, queue.bucket.wait(queue.credit))
        heldByQueueLimit = true
    }

    /// The queue's credit to write, when this claim debited it.
    package var queueCredit: Int64? {
        guard let queue, started > 0 else { return nil }
        return queue.credit
    }

    /// The partitions' credits to write: those this claim debited.
    package var partitionCreditsToWrite: [(partition: String, credit: Int64)] {
        debited.sorted().compactMap { name in partitionCredits[name].map { (name, $0) } }
    }

    /// `next` (the milliseconds until a record falls due, or `nil`) or the wait for a start,
    /// the sooner.
    package func nextDue(_ next: Int64?) -> Int64? {
        guard let wait else { return next }
        return min(next ?? .max, wait)
    }
}
