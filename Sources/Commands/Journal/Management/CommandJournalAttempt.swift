#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One attempt at a record, as ``CommandJournalManagement/details(forKey:)`` shows it: its number (the
/// fencing token it ran under), the worker that made it, and how it ended.
///
/// ```swift
/// for attempt in try #require(await journal.details(forKey: "order-42/charge")).attempts {
///     print(attempt.number, attempt.owner ?? "?", attempt.error ?? "ok")  // 1 w-1 bank timed out
/// }
/// ```
public struct CommandJournalAttempt: Sendable, Hashable, Codable {
    /// The attempt's number: 1 for the first, and its fencing token.
    public var number: Int
    /// The worker that made it, when the journal knows.
    public var owner: String?
    /// What it ended with: the error the command threw (it was retried, or its record failed),
    /// the reason it was cancelled; `nil` when it succeeded, runs still, or was taken over from
    /// a worker that stopped.
    public var error: String?
    /// When it ended, when the journal knows; `nil` while it runs.
    public var endedAt: Date?

    /// Creates an attempt.
    public init(number: Int, owner: String? = nil, error: String? = nil, endedAt: Date? = nil) {
        self.number = number
        self.owner = owner
        self.error = error
        self.endedAt = endedAt
    }

    /// The attempts of `record`, 1 through its ``CommandJournalRecord/attempts``, from those the
    /// journal `logged` (ended with an error or cancelled): an attempt not logged ended without
    /// an error, except the last, which carries the record's failure reason when it failed, and
    /// runs still when the record is held. A step (which a worker does not claim: its attempts
    /// are its tries within its transaction's run) has the tries logged, and a last one that
    /// settled it.
    package static func all(
        of record: CommandJournalRecord, logged: [CommandJournalAttempt]
    ) -> [CommandJournalAttempt] {
        let byNumber = Dictionary(logged.map { ($0.number, $0) }, uniquingKeysWith: { _, last in last })
        let lastLogged = logged.map(\.number).max() ?? 0
        let last =
            record.entry.parentKey == nil ? record.attempts : lastLogged + (record.isSettled && lastLogged > 0 ? 1 : 0)
        let count = max(last, lastLogged)
        guard count > 0 else { return [] }
        return (1...count).map { number in
            if let attempt = byNumber[number] { return attempt }
            guard number == last else { return CommandJournalAttempt(number: number) }
            switch record.status {
            case .pending:
                return CommandJournalAttempt(number: number, owner: record.owner)
            case .failed:
                return CommandJournalAttempt(
                    number: number, owner: record.owner, error: record.failureReason, endedAt: record.updatedAt)
            case .done, .compensated:
                return CommandJournalAttempt(number: number, owner: record.owner, endedAt: record.updatedAt)
            }
        }
    }
}
