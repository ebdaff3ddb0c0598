/// Who holds journal records, for how long at a time, and — once a record is begun or claimed —
/// which attempt at it this is: a worker's identity, the length of the leases it takes, and the
/// attempt's fencing token. A lease is renewed while its worker lives; once it expires, any
/// other worker may take the record over, and the attempt before is fenced out.
///
/// ```swift
/// let lease = JournalLease(owner: "web-1-4711-2f9c", duration: .seconds(30))
/// guard case .started(let record) = try await journal.begin(entry, lease: lease) else { return }
/// let attempt = lease.fenced(by: record)  // writes of this attempt carry its token
/// try await journal.settle(record.id, as: .done(output: nil), lease: attempt)
/// ```
public struct JournalLease: Sendable, Hashable, Codable {
    /// The worker's identity: unique among the live workers of one journal.
    public var owner: String
    /// How long a claim lasts unless renewed.
    public var duration: Duration
    /// The fencing token of the attempt this lease writes for: the root record's
    /// ``CommandJournalRecord/attempts`` when this worker began or claimed it. A write under a
    /// token commits only while the root still holds that token — never after the record was
    /// claimed again, by another worker or by this one. `nil`: the write is fenced by the owner
    /// only (for callers that hold one attempt at a time); BehaviorKit's workers always pass one.
    public var token: Int?

    /// Creates a lease of `duration` for `owner`, for the attempt whose fencing token is `token`.
    public init(owner: String, duration: Duration, token: Int? = nil) {
        self.owner = owner
        self.duration = duration
        self.token = token
    }

    /// This lease, for the attempt `record` is at (a record that ``CommandJournal/begin(_:lease:)``
    /// or ``CommandJournal/claim(_:from:concurrency:takingOverFrom:lease:)`` returned): its
    /// writes commit only while the record holds this attempt.
    public func fenced(by record: CommandJournalRecord) -> JournalLease {
        JournalLease(owner: owner, duration: duration, token: record.attempts)
    }

    /// Whether a pending root record is held by this lease: its owner is this lease's, and its
    /// attempt this lease's token (when the lease names one). Journals check writes with it.
    ///
    /// - Parameters:
    ///   - owner: the record's owner.
    ///   - attempts: the record's ``CommandJournalRecord/attempts``, its current fencing token.
    public func holds(owner: String?, attempts: Int) -> Bool {
        owner == self.owner && (token == nil || token == attempts)
    }
}
