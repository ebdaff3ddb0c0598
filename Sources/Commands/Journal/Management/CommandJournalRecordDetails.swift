#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One record in full, as ``CommandJournalManagement/details(forKey:)`` gives it: the record, its
/// children (a transaction's steps, with their outputs and errors), every attempt with its
/// error, when it falls due, and why a transaction compensated.
///
/// ```swift
/// let details = try #require(await journal.details(forKey: "order-42"))
/// details.record.status        // .compensated
/// details.compensationReason   // "card declined": the failed step's error, or why it was cancelled
/// details.steps.map(\.status)  // [.compensated, .failed]
/// details.attempts.last?.error
/// ```
public struct CommandJournalRecordDetails: Sendable, Hashable, Codable {
    /// The record, as ``CommandJournal/record(forKey:)`` gives it.
    public var record: CommandJournalRecord
    /// Its children in sequence order (a transaction's steps, and the mark of a cancellation).
    public var children: [CommandJournalRecord]
    /// Its attempts, first to last, with their errors.
    public var attempts: [CommandJournalAttempt]

    /// Creates the details of `record`.
    public init(record: CommandJournalRecord, children: [CommandJournalRecord], attempts: [CommandJournalAttempt]) {
        self.record = record
        self.children = children
        self.attempts = attempts
    }

    /// The steps of a transaction: its children without the mark of a cancellation.
    public var steps: [CommandJournalRecord] {
        children.filter { $0.entry.kind != CommandJournalCancellation.kind }
    }

    /// When a record waiting on a queue (or released to be retried) falls due: its
    /// ``CommandJournalRecord/leaseExpiresAt`` while no worker holds it; `nil` otherwise.
    public var dueAt: Date? {
        record.status == .pending && record.owner == nil ? record.leaseExpiresAt : nil
    }

    /// When the lease of the worker that holds the record ends unless renewed; `nil` when no
    /// worker holds it.
    public var leaseExpiresAt: Date? {
        record.status == .pending && record.owner != nil ? record.leaseExpiresAt : nil
    }

    /// Whether an operator cancelled the record while it ran: a transaction that the next
    /// worker compensates (or did).
    public var isCancelled: Bool { cancellation != nil }

    /// Why a transaction compensated (or is being rolled back): the reason it was cancelled,
    /// or the error of the step that failed; `nil` for a record that did not roll back.
    public var compensationReason: String? {
        if let cancellation { return cancellation.failureReason }
        guard record.entry.kind == CommandJournalCancellation.transactionKind else { return nil }
        return steps.first { $0.status == .failed }?.failureReason
    }

    private var cancellation: CommandJournalRecord? {
        children.first { $0.entry.kind == CommandJournalCancellation.kind }
    }
}

/// How a journal marks a running transaction an operator cancelled: a settled child record of
/// kind ``kind`` under the key ``key(of:)``, whose failure reason is the cancellation's. The
/// worker that takes the transaction over next finds it and compensates.
public enum CommandJournalCancellation {
    /// The kind of the mark.
    public static let kind = "behaviorkit.cancel"
    /// The kind of durable transactions' records (`DurableTransaction.journalKind`).
    public static let transactionKind = "behaviorkit.transaction"

    /// The key of the mark under the transaction `key`.
    public static func key(of key: String) -> String { "\(key)/behaviorkit.cancel" }

    /// The mark's entry under the transaction `key`.
    public static func entry(of key: String) -> CommandJournalEntry {
        CommandJournalEntry(idempotencyKey: self.key(of: key), kind: kind, payload: [], parentKey: key)
    }

    /// The failure reason a cancelled record carries: `"cancelled: <reason>"`.
    public static func reason(_ reason: String) -> String {
        reason.isEmpty ? "cancelled" : "cancelled: \(reason)"
    }

    /// Whether `failureReason` is a cancellation's (``reason(_:)``).
    public static func isCancellation(_ failureReason: String?) -> Bool {
        guard let failureReason else { return false }
        return failureReason == "cancelled" || failureReason.hasPrefix("cancelled: ")
    }

    /// The canceller's reason when `failureReason` is a cancellation's (``reason(_:)``): `""`
    /// for one without a reason; `nil` for another failure.
    package static func reason(of failureReason: String?) -> String? {
        guard let failureReason else { return nil }
        if failureReason == reason("") { return "" }
        let prefix = reason("x").dropLast()
        return failureReason.hasPrefix(prefix) ? String(failureReason.dropFirst(prefix.count)) : nil
    }
}
