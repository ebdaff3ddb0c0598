/// Where commands are written down before they run, so that what a crash left unfinished can
/// be found, and run again or compensated.
///
/// The protocol is small on purpose: ``InMemoryCommandJournal`` implements it here, a durable
/// SQLite journal and a PostgreSQL one are more implementations of the same calls. Every
/// implementation must pass `CommandJournalConformance` from `BehaviorKitTesting`.
///
/// ```swift
/// let journal = InMemoryCommandJournal()
/// let result = try await journal.run(charge, as: entry)  // append, execute, mark done
/// for record in try await journal.unfinished() { … }     // on start: what a crash left
/// ```
///
/// Rules every journal keeps:
/// - `append` assigns increasing sequence numbers; appending a key that exists returns the
///   existing record unchanged (a retried request does not run twice), or throws
///   ``CommandJournalError/conflictingEntry(key:)`` if its kind, payload or parent differ.
/// - `markDone`, `markFailed` and `markCompensated` set the status of an existing key, or throw
///   ``CommandJournalError/unknownKey(_:)``; marking is idempotent.
/// - `unfinished` lists the pending records in sequence order, `records(parentKey:)` the
///   records of a parent (a transaction's steps), `allRecords` everything.
///
/// Nothing here assumes one process: sequence numbers come from the store, a key is unique in
/// the store, and every call is one atomic change, so a journal shared by several processes
/// (PostgreSQL, say) keeps the same rules.
public protocol CommandJournal: Sendable {
    /// Writes `entry` down as pending, before its command runs. Returns only once the record is
    /// as durable as the journal promises.
    func append(_ entry: CommandJournalEntry) async throws -> CommandJournalRecord

    /// Marks the record with `key` as done, after its command finished.
    func markDone(_ key: String) async throws

    /// Marks the record with `key` as failed, with the reason.
    func markFailed(_ key: String, reason: String) async throws

    /// Marks the record with `key` as compensated: it ran and was undone.
    func markCompensated(_ key: String) async throws

    /// The record with `key`, or `nil`.
    func record(forKey key: String) async throws -> CommandJournalRecord?

    /// The records still pending, in sequence order: what a crash left unfinished.
    func unfinished() async throws -> [CommandJournalRecord]

    /// The records whose entry names `parentKey` as its parent, in sequence order.
    func records(parentKey: String) async throws -> [CommandJournalRecord]

    /// Every record, in sequence order.
    func allRecords() async throws -> [CommandJournalRecord]
}

/// What ``CommandJournal/run(_:as:)`` did.
public enum CommandJournalRunResult: Sendable, Hashable {
    /// The command ran and finished; its record is done.
    case executed
    /// A record with this key was already done: the command did not run again.
    case alreadyDone
}

extension CommandJournal {
    /// Appends `entry`, executes `command`, and marks the record done (or failed, rethrowing
    /// the command's error). A key already done is not run again.
    ///
    /// A record already pending (a crash between append and mark) is run again: commands
    /// journaled this way must be safe to repeat under their idempotency key.
    public func run(_ command: any Command, as entry: CommandJournalEntry) async throws -> CommandJournalRunResult {
        let record = try await append(entry)
        if record.status == .done { return .alreadyDone }
        do {
            try await command.execute()
        } catch {
            try await markFailed(entry.idempotencyKey, reason: "\(error)")
            throw error
        }
        try await markDone(entry.idempotencyKey)
        return .executed
    }
}
