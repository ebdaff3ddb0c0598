/// Who holds journal records, and for how long at a time: a worker's identity and the length
/// of the leases it takes. A lease is renewed while its worker lives; once it expires, any
/// other worker may take the record over.
///
/// ```swift
/// let lease = JournalLease(owner: "web-1-4711-2f9c", duration: .seconds(30))
/// switch try await journal.begin(entry, lease: lease) { … }
/// ```
public struct JournalLease: Sendable, Hashable, Codable {
    /// The worker's identity: unique among the live workers of one journal.
    public var owner: String
    /// How long a claim lasts unless renewed.
    public var duration: Duration

    /// Creates a lease of `duration` for `owner`.
    public init(owner: String, duration: Duration) {
        self.owner = owner
        self.duration = duration
    }
}
