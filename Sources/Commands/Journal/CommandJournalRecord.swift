#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// How far a journaled command got.
public enum CommandJournalStatus: String, Codable, Sendable, Hashable, CaseIterable {
    /// Written down, not yet settled: it may be running, or a crash left it (its owner's lease
    /// then expires and another worker takes it over), or it waits on a queue.
    case pending
    /// It ran and finished.
    case done
    /// It ran and failed (the record says why).
    case failed
    /// It ran and was undone: a step of a transaction that rolled back, or the transaction.
    case compensated
}

/// A journaled command: the entry, its place in the journal, how far it got, and who holds it.
///
/// ```swift
/// let record = try #require(try await journal.record(forKey: "order-42"))
/// record.status          // .pending
/// record.owner           // "web-1-4711-2f9c": the worker that holds it
/// record.leaseExpiresAt  // when another worker may take it over, unless the owner renews
/// ```
public struct CommandJournalRecord: Codable, Sendable, Hashable, Identifiable {
    /// The order of appending, from 1; unique within a journal.
    public var sequence: Int64
    /// What was written down.
    public var entry: CommandJournalEntry
    /// How far it got.
    public var status: CommandJournalStatus
    /// Why it failed, when it did.
    public var failureReason: String?
    /// What it returned, encoded: a step's output, kept so that later steps, its compensation
    /// and recovery use it instead of running it again.
    public var output: [UInt8]?
    /// The worker that holds it (a pending root record), or settled it; `nil` while it waits
    /// on a queue, and for a transaction's steps, which their transaction's owner holds.
    public var owner: String?
    /// When the owner's lease ends unless renewed; for a record waiting on a queue, when it
    /// becomes due. `nil` once settled, and for steps.
    public var leaseExpiresAt: Date?
    /// The queue it waits on, or `nil` for work run by its caller.
    public var queue: String?
    /// How many times a worker took it up: 1 for its first run, more after takeovers. It is
    /// also the current attempt's fencing token: every begin or claim that takes the record up
    /// adds one, so a later attempt always carries a greater token (``JournalLease/token``).
    public var attempts: Int
    /// When it was written down.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date
    /// The trace context of the caller that enqueued it, as the tracer bootstrapped there wrote
    /// it (W3C `traceparent`, say): the worker's spans continue that trace. `nil` when none was
    /// kept (no tracer, or a record written otherwise than by ``CommandQueue``).
    public var traceContext: [String: String]?
    /// Its priority on its queue: a claim takes the due records with the highest priority
    /// first, then the oldest first (``CommandQueue/defaultPriority``, 0, unless it was enqueued
    /// with another; 0 for work run by its caller and for steps, and for a record written before
    /// the journal kept priorities).
    public var priority: Int

    /// Creates a record.
    public init(
        sequence: Int64, entry: CommandJournalEntry, status: CommandJournalStatus, failureReason: String? = nil,
        output: [UInt8]? = nil, owner: String? = nil, leaseExpiresAt: Date? = nil, queue: String? = nil,
        attempts: Int = 0, createdAt: Date = Date(timeIntervalSince1970: 0), updatedAt: Date? = nil,
        traceContext: [String: String]? = nil, priority: Int = CommandQueue.defaultPriority
    ) {
        self.sequence = sequence
        self.entry = entry
        self.status = status
        self.failureReason = failureReason
        self.output = output
        self.owner = owner
        self.leaseExpiresAt = leaseExpiresAt
        self.queue = queue
        self.attempts = attempts
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.traceContext = traceContext
        self.priority = priority
    }

    /// Decodes a record; one encoded before records had a priority has the default
    /// (``CommandQueue/defaultPriority``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            sequence: try container.decode(Int64.self, forKey: .sequence),
            entry: try container.decode(CommandJournalEntry.self, forKey: .entry),
            status: try container.decode(CommandJournalStatus.self, forKey: .status),
            failureReason: try container.decodeIfPresent(String.self, forKey: .failureReason),
            output: try container.decodeIfPresent([UInt8].self, forKey: .output),
            owner: try container.decodeIfPresent(String.self, forKey: .owner),
            leaseExpiresAt: try container.decodeIfPresent(Date.self, forKey: .leaseExpiresAt),
            queue: try container.decodeIfPresent(String.self, forKey: .queue),
            attempts: try container.decode(Int.self, forKey: .attempts),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            updatedAt: try container.decode(Date.self, forKey: .updatedAt),
            traceContext: try container.decodeIfPresent([String: String].self, forKey: .traceContext),
            priority: try container.decodeIfPresent(Int.self, forKey: .priority) ?? CommandQueue.defaultPriority)
    }

    /// The idempotency key, which identifies the record.
    public var id: String { entry.idempotencyKey }

    /// The fencing token of the attempt that holds it: ``attempts``.
    public var fencingToken: Int { attempts }

    /// Whether it settled: done, failed or compensated.
    public var isSettled: Bool { status != .pending }
}
