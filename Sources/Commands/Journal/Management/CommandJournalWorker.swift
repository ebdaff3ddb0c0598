#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A worker as the journal sees it, from the records it holds: ``CommandJournalManagement/workers()``.
///
/// ```swift
/// for worker in try await journal.workers() {
///     print(worker.owner, worker.holds.count, worker.isLive(at: now) ? "live" : "stopped?")
/// }
/// ```
///
/// The journal keeps no row per worker: a worker that holds nothing is not listed, and a
/// worker's last renewal is its ``leaseExpiresAt`` less its lease's duration (which the
/// worker, not the journal, knows).
public struct CommandJournalWorker: Sendable, Hashable, Codable {
    /// The worker's identity (``JournalLease/owner``).
    public var owner: String
    /// The keys of the root records it holds, in sequence order.
    public var holds: [String]
    /// The latest end of its leases: it renewed them `lease duration` before.
    public var leaseExpiresAt: Date
    /// The earliest end of its leases: a lease that ended while it lives is one it lost.
    public var earliestLeaseExpiry: Date

    /// Creates a worker.
    public init(owner: String, holds: [String], leaseExpiresAt: Date, earliestLeaseExpiry: Date) {
        self.owner = owner
        self.holds = holds
        self.leaseExpiresAt = leaseExpiresAt
        self.earliestLeaseExpiry = earliestLeaseExpiry
    }

    /// Whether its latest lease still runs at `date`: a worker whose every lease ended stopped
    /// renewing (it stopped, or cannot reach the journal), and its records are taken over.
    public func isLive(at date: Date) -> Bool { leaseExpiresAt > date }

    /// The workers holding `records` (pending roots, in sequence order), by owner.
    package static func holding(_ records: some Sequence<CommandJournalRecord>) -> [CommandJournalWorker] {
        var workers: [String: CommandJournalWorker] = [:]
        for record in records {
            guard record.status == .pending, record.entry.parentKey == nil, let owner = record.owner,
                let expiry = record.leaseExpiresAt
            else { continue }
            if var worker = workers[owner] {
                worker.holds.append(record.id)
                worker.leaseExpiresAt = max(worker.leaseExpiresAt, expiry)
                worker.earliestLeaseExpiry = min(worker.earliestLeaseExpiry, expiry)
                workers[owner] = worker
            } else {
                workers[owner] = CommandJournalWorker(
                    owner: owner, holds: [record.id], leaseExpiresAt: expiry, earliestLeaseExpiry: expiry)
            }
        }
        return workers.values.sorted { $0.owner < $1.owner }
    }
}
