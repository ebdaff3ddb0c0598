/// What a bulk action (``CommandJournalManagement/retry(matching:after:limit:)``,
/// ``CommandJournalManagement/cancel(matching:reason:after:limit:)``) did in one call.
///
/// ```swift
/// let batch = try await journal.cancel(matching: filter, reason: "bad deploy", after: nil, limit: 1_000)
/// print("\(batch.changed.count) cancelled, \(batch.refused.count) refused")
/// ```
public struct JournalBulkResult: Sendable, Hashable {
    /// A record the action left as it was, and why.
    public struct Refusal: Sendable, Hashable, CustomStringConvertible {
        /// The record's key.
        public var key: String
        /// Why it was refused: the journal's error, as text.
        public var reason: String

        /// A refusal of `key` for `reason`.
        public init(key: String, reason: String) {
            self.key = key
            self.reason = reason
        }

        /// "key: reason".
        public var description: String { "\(key): \(reason)" }
    }

    /// The records changed, as they are now, in sequence order.
    public var changed: [CommandJournalRecord]
    /// The records that passed the filter but were refused.
    public var refused: [Refusal]
    /// The cursor to call again with when more records may pass the filter; `nil` when none do.
    public var nextCursor: Int64?

    /// A result.
    public init(changed: [CommandJournalRecord], refused: [Refusal], nextCursor: Int64?) {
        self.changed = changed
        self.refused = refused
        self.nextCursor = nextCursor
    }
}
