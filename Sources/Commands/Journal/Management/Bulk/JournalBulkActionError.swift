/// A bulk action given a filter that no record it could act on passes.
///
/// ```swift
/// // throws: retry acts on failed or compensated records, and the filter lists only done ones
/// _ = try await journal.retry(matching: CommandJournalFilter(statuses: [.done]), after: nil, limit: 100)
/// ```
public enum JournalBulkActionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `action` acts on records of other statuses than `statuses`, all the filter lists.
    case nothingToAct(action: String, statuses: [CommandJournalStatus])

    /// The error, naming the action and the statuses.
    public var description: String {
        switch self {
        case .nothingToAct(let action, let statuses):
            let listed = statuses.map(\.rawValue).joined(separator: ", ")
            let acted = action == "retry" ? "failed or compensated" : "pending"
            return "\(action) acts on \(acted) records, and the filter lists only \(listed) ones"
        }
    }
}
