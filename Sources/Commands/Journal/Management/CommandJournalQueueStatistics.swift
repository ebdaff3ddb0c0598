#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The depth of one queue by state, read from its pending records only (an index of them in
/// each store, never a scan of the settled ones): ``CommandJournalManagement/queues()``.
///
/// ```swift
/// for queue in try await journal.queues() {
///     gauge("queue_depth", queue.due + queue.delayed, ["queue": queue.name ?? "callers"])
///     gauge("queue_running", queue.running)  // the concurrency in use
/// }
/// ```
public struct CommandJournalQueueStatistics: Sendable, Hashable, Codable {
    /// The queue's name; `nil` for the work run by callers (outside any queue).
    public var name: String?
    /// Pending records no worker holds that are due: they wait for a worker.
    public var due: Int
    /// Pending records no worker holds that fall due later (delayed, or released to be retried).
    public var delayed: Int
    /// Records a worker holds under a live lease: the concurrency in use.
    public var running: Int
    /// Records held under a lease that ended: their worker stopped; another takes them over.
    public var stalled: Int
    /// When the oldest due (or the next delayed) record fell or falls due; `nil` when none waits.
    public var oldestDue: Date?

    /// Creates the statistics of a queue.
    public init(
        name: String?, due: Int = 0, delayed: Int = 0, running: Int = 0, stalled: Int = 0, oldestDue: Date? = nil
    ) {
        self.name = name
        self.due = due
        self.delayed = delayed
        self.running = running
        self.stalled = stalled
        self.oldestDue = oldestDue
    }

    /// Every pending record of the queue.
    public var depth: Int { due + delayed + running + stalled }

    /// The statistics of the queues of `records` (pending roots) at `now`, sorted by name (the
    /// callers' work, `nil`, first).
    package static func of(
        _ records: some Sequence<CommandJournalRecord>, now: Date
    ) -> [CommandJournalQueueStatistics] {
        var queues: [String?: CommandJournalQueueStatistics] = [:]
        for record in records where record.status == .pending && record.entry.parentKey == nil {
            var queue = queues[record.queue] ?? CommandJournalQueueStatistics(name: record.queue)
            let expiry = record.leaseExpiresAt ?? now
            switch (record.owner, expiry <= now) {
            case (nil, true): queue.due += 1
            case (nil, false): queue.delayed += 1
            case (_?, false): queue.running += 1
            case (_?, true): queue.stalled += 1
            }
            if record.owner == nil { queue.oldestDue = min(queue.oldestDue ?? expiry, expiry) }
            queues[record.queue] = queue
        }
        return queues.values.sorted { first, second in
            switch (first.name, second.name) {
            case (nil, _): second.name != nil
            case (_?, nil): false
            case (let first?, let second?): first < second
            }
        }
    }
}
