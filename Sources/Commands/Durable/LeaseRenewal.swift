/// How a ``LeaseKeeper`` renews the leases it keeps: sends the attempts (key and fencing token)
/// and answers the keys still held by their attempt.
package struct LeaseRenewal: Sendable {
    /// Renews `attempts`; answers the keys whose attempt still holds its lease.
    package let renew: @Sendable (_ attempts: [String: Int]) async throws -> [String]
    /// Whether a write stalled in the store cannot cost a lease (a renewal under way answers
    /// before any other worker could claim): ``CommandJournal/leasesOutlastWriteStalls``.
    package let outlastsWriteStalls: Bool

    /// A renewal by `renew`.
    package init(
        outlastsWriteStalls: Bool = false,
        renew: @escaping @Sendable (_ attempts: [String: Int]) async throws -> [String]
    ) {
        self.renew = renew
        self.outlastsWriteStalls = outlastsWriteStalls
    }

    /// The renewal of `journal`'s root records under `lease`.
    static func journal(_ journal: any CommandJournal, _ lease: JournalLease) -> LeaseRenewal {
        LeaseRenewal(outlastsWriteStalls: journal.leasesOutlastWriteStalls) {
            try await journal.renew($0, lease: lease)
        }
    }
}
