#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Which records ``CommandJournal/records(matching:after:limit:)`` lists: every condition set
/// must hold; an empty filter lists every root record.
///
/// ```swift
/// var filter = CommandJournalFilter(statuses: [.failed], queue: "payments")
/// filter.keyPrefix = "order-"
/// filter.updatedSince = clock.currentDate.addingTimeInterval(-3600)  // changed in the last hour
/// let page = try await journal.records(matching: filter, after: nil, limit: 50)
/// ```
public struct CommandJournalFilter: Sendable, Hashable, Codable {
    /// The statuses listed; empty: every status.
    public var statuses: Set<CommandJournalStatus>
    /// The queue the records wait on, or `nil` for any (work run by callers included).
    public var queue: String?
    /// The command kind, or `nil` for any.
    public var kind: String?
    /// A prefix of the idempotency key (`"order-42"` lists `"order-42"` and `"order-42/0"`), or
    /// `nil` for any.
    public var keyPrefix: String?
    /// The worker that holds or settled the records, or `nil` for any.
    public var owner: String?
    /// Records that last changed at or after this date, or `nil`.
    public var updatedSince: Date?
    /// Records that last changed before this date, or `nil`.
    public var updatedBefore: Date?
    /// Whether to list roots only (commands and transactions, not a transaction's steps): `true`
    /// by default; a record's steps are in ``CommandJournalManagement/details(forKey:)``.
    public var rootsOnly: Bool
    /// Whether to list only the records an operator cancelled (`true`: their failure reason is
    /// a cancellation's, ``CommandJournalCancellation/reason(_:)``), only the others (`false`),
    /// or both (`nil`, the default). See ``deadLetters(queue:)``.
    public var cancelled: Bool?

    /// Creates a filter; every condition left out matches every record.
    public init(
        statuses: Set<CommandJournalStatus> = [], queue: String? = nil, kind: String? = nil, keyPrefix: String? = nil,
        owner: String? = nil, updatedSince: Date? = nil, updatedBefore: Date? = nil, rootsOnly: Bool = true,
        cancelled: Bool? = nil
    ) {
        self.cancelled = cancelled
        self.statuses = statuses
        self.queue = queue
        self.kind = kind
        self.keyPrefix = keyPrefix
        self.owner = owner
        self.updatedSince = updatedSince
        self.updatedBefore = updatedBefore
        self.rootsOnly = rootsOnly
    }

    /// Whether `record` passes every condition: the rule every journal's query keeps.
    public func matches(_ record: CommandJournalRecord) -> Bool {
        (statuses.isEmpty || statuses.contains(record.status)) && (queue == nil || record.queue == queue)
            && (kind == nil || record.entry.kind == kind)
            && (keyPrefix.map { record.entry.idempotencyKey.hasPrefix($0) } ?? true)
            && (owner == nil || record.owner == owner)
            && (updatedSince.map { record.updatedAt >= $0 } ?? true)
            && (updatedBefore.map { record.updatedAt < $0 } ?? true)
            && (!rootsOnly || record.entry.parentKey == nil)
            && (cancelled.map { CommandJournalCancellation.isCancellation(record.failureReason) == $0 } ?? true)
    }

    /// The dead letters of `queue` (of every queue when `nil`): the records that failed for
    /// good — their retries used up, or failing without any — and were not cancelled
    /// (River's "discarded" jobs). Retry them with ``CommandJournalManagement/retry(matching:after:limit:)``.
    ///
    /// ```swift
    /// let dead = try await journal.records(matching: .deadLetters(queue: "mail"), after: nil, limit: 50)
    /// ```
    public static func deadLetters(queue: String?) -> CommandJournalFilter {
        CommandJournalFilter(statuses: [.failed], queue: queue, cancelled: false)
    }
}

/// One page of ``CommandJournal/records(matching:after:limit:)``: records in sequence order,
/// and the cursor that continues after them.
///
/// ```swift
/// var cursor: Int64?
/// repeat {
///     let page = try await journal.records(matching: filter, after: cursor, limit: 100)
///     show(page.records)
///     cursor = page.nextCursor
/// } while cursor != nil
/// ```
public struct CommandJournalPage: Sendable, Hashable, Codable {
    /// The records, in sequence order.
    public var records: [CommandJournalRecord]
    /// The cursor of the next page (the last record's sequence), or `nil` when this page is the
    /// last.
    public var nextCursor: Int64?

    /// Creates a page.
    public init(records: [CommandJournalRecord], nextCursor: Int64?) {
        self.records = records
        self.nextCursor = nextCursor
    }

    /// The page of `limit` records after `cursor` among `matching`, which are in sequence order.
    package init(_ matching: some Sequence<CommandJournalRecord>, after cursor: Int64?, limit: Int) {
        var records: [CommandJournalRecord] = []
        var more = false
        for record in matching where record.sequence > (cursor ?? .min) {
            guard records.count < max(1, limit) else {
                more = true
                break
            }
            records.append(record)
        }
        self.init(records: records, nextCursor: more ? records.last?.sequence : nil)
    }
}
