/// What ``CommandJournal/begin(_:lease:)`` found under a key, and what it did.
///
/// ```swift
/// switch try await journal.begin(entry, lease: lease) {
/// case .started(let record), .resumed(let record): run(record)  // this worker holds it now
/// case .settled(let record): answer(record.status)             // ran before: not again
/// case .busy(let record): throw CommandJournalError.busy(key: record.id, owner: record.owner)
/// }
/// ```
public enum CommandJournalBegin: Sendable, Hashable {
    /// The key was new: the record is written down, pending, held under the lease.
    case started(CommandJournalRecord)
    /// The key was pending and its lease had expired (its owner died), or it was a queued
    /// record now due: the record is held under this lease now. Work recorded under it (a
    /// transaction's steps) may have run.
    case resumed(CommandJournalRecord)
    /// The key already settled: nothing changed.
    case settled(CommandJournalRecord)
    /// The key is pending under another live lease, or waits on a queue and is not due: nothing
    /// changed.
    case busy(CommandJournalRecord)

    /// The record, whatever happened.
    public var record: CommandJournalRecord {
        switch self {
        case .started(let record), .resumed(let record), .settled(let record), .busy(let record): record
        }
    }
}

/// How a record settles: ``CommandJournal/settle(_:as:lease:)``.
public enum CommandJournalSettlement: Sendable, Hashable {
    /// It ran and finished; `output` is what it returned, encoded, if anything.
    case done(output: [UInt8]?)
    /// It failed, for `reason`.
    case failed(reason: String)
    /// It ran and was undone.
    case compensated

    /// The status it settles as.
    public var status: CommandJournalStatus {
        switch self {
        case .done: .done
        case .failed: .failed
        case .compensated: .compensated
        }
    }
}

/// One settlement in ``CommandJournal/settle(_:lease:)``: the record with `key` settles; a
/// child not written yet (a transaction's step, written once it ran) is written with `entry`.
///
/// ```swift
/// try await journal.settle([
///     .settle(step.entry, as: .done(output: paymentID)),  // the last step, written as it settles
///     .settle("order-42", as: .done(output: nil)),         // and its transaction, in one commit
/// ], lease: lease)
/// ```
public struct CommandJournalChange: Sendable, Hashable {
    /// The record's key.
    public var key: String
    /// How it settles.
    public var settlement: CommandJournalSettlement
    /// The child's entry, to write it when it is not there yet.
    public var entry: CommandJournalEntry?

    /// Settles the existing record `key`.
    public static func settle(_ key: String, as settlement: CommandJournalSettlement) -> Self {
        Self(key: key, settlement: settlement, entry: nil)
    }

    /// Settles the child `entry`, writing it first when it is not there yet.
    public static func settle(_ entry: CommandJournalEntry, as settlement: CommandJournalSettlement) -> Self {
        Self(key: entry.idempotencyKey, settlement: settlement, entry: entry)
    }
}

/// What ``CommandJournal/claim(_:from:concurrency:lease:)`` took: records now held under the
/// lease, and when the next one falls due.
public struct CommandJournalClaim: Sendable, Hashable {
    /// The records claimed, oldest first; each is held under the lease.
    public var records: [CommandJournalRecord]
    /// How long until the next claimable record falls due (a delayed record, a lease that
    /// expires, or a due record a rate limit holds back until its next start), or `nil` when
    /// nothing else is pending there.
    public var nextDue: Duration?
    /// The worker each record was taken over from, by key: records another worker had held
    /// (its lease expired, or it was named as stopped). A record no worker held is absent.
    public var previousOwners: [String: String]
    /// Whether the queue's own rate limit holds back its due records until ``nextDue``: no claim
    /// starts one before then (unless the limit changes), so that a ``QueueWorker`` sleeps until
    /// then through the wake-ups of enqueues, rather than claiming in vain at each.
    public var heldByRateLimit: Bool

    /// Creates a claim.
    public init(
        records: [CommandJournalRecord], nextDue: Duration?, previousOwners: [String: String] = [:],
        heldByRateLimit: Bool = false
    ) {
        self.records = records
        self.nextDue = nextDue
        self.previousOwners = previousOwners
        self.heldByRateLimit = heldByRateLimit
    }
}
