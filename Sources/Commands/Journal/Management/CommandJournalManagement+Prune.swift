#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension CommandJournalManagement {
    /// Deletes every root record that settled before `date`, with its children; returns how
    /// many records were deleted. Pending records are never deleted, nor a settled root with a
    /// pending child: ``CommandJournalManagement/prune(settledBefore:statuses:queue:limit:)`` with every status, queue
    /// and no limit.
    ///
    /// ```swift
    /// let deleted = try await journal.prune(settledBefore: clock.currentDate.addingTimeInterval(-86_400))
    /// ```
    @discardableResult
    public func prune(settledBefore date: Date) async throws -> Int {
        try await prune(settledBefore: date, statuses: [], queue: nil, limit: nil)
    }
}
