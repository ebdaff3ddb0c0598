import BehaviorKitSync

/// A ``CommandJournal`` in memory: for tests, and for processes that only need the
/// bookkeeping (a crash loses it).
///
/// ```swift
/// let journal = InMemoryCommandJournal()
/// _ = try await journal.append(CommandJournalEntry(idempotencyKey: "k1", kind: "cart.add"))
/// try await journal.unfinished().count  // 1, until markDone("k1")
/// ```
public final class InMemoryCommandJournal: CommandJournal {
    private struct State {
        var records: [CommandJournalRecord] = []
        var indexByKey: [String: Int] = [:]
    }

    private let state = LockedValue(State())

    /// Creates an empty journal.
    public init() {}

    /// Every record, in sequence order.
    public var records: [CommandJournalRecord] { state.withLock { $0.records } }

    /// Writes `entry` down as pending; see ``CommandJournal/append(_:)``.
    public func append(_ entry: CommandJournalEntry) async throws -> CommandJournalRecord {
        try state.withLock { state throws(CommandJournalError) -> CommandJournalRecord in
            if let index = state.indexByKey[entry.idempotencyKey] {
                let existing = state.records[index]
                guard existing.entry == entry else {
                    throw .conflictingEntry(key: entry.idempotencyKey)
                }
                return existing
            }
            let record = CommandJournalRecord(
                sequence: Int64(state.records.count + 1), entry: entry, status: .pending)
            state.indexByKey[entry.idempotencyKey] = state.records.count
            state.records.append(record)
            return record
        }
    }

    /// Marks the record with `key` done; see ``CommandJournal/markDone(_:)``.
    public func markDone(_ key: String) async throws {
        try update(key) {
            $0.status = .done; $0.failureReason = nil
        }
    }

    /// Marks the record with `key` failed; see ``CommandJournal/markFailed(_:reason:)``.
    public func markFailed(_ key: String, reason: String) async throws {
        try update(key) {
            $0.status = .failed; $0.failureReason = reason
        }
    }

    /// Marks the record with `key` compensated; see ``CommandJournal/markCompensated(_:)``.
    public func markCompensated(_ key: String) async throws {
        try update(key) { $0.status = .compensated }
    }

    /// The record with `key`, or `nil`.
    public func record(forKey key: String) async throws -> CommandJournalRecord? {
        state.withLock { state in state.indexByKey[key].map { state.records[$0] } }
    }

    /// The pending records, in sequence order.
    public func unfinished() async throws -> [CommandJournalRecord] {
        state.withLock { $0.records.filter { $0.status == .pending } }
    }

    /// The records of `parentKey`, in sequence order.
    public func records(parentKey: String) async throws -> [CommandJournalRecord] {
        state.withLock { $0.records.filter { $0.entry.parentKey == parentKey } }
    }

    /// Every record, in sequence order.
    public func allRecords() async throws -> [CommandJournalRecord] { records }

    private func update(_ key: String, _ change: (inout CommandJournalRecord) -> Void) throws(CommandJournalError) {
        try state.withLock { state throws(CommandJournalError) in
            guard let index = state.indexByKey[key] else { throw .unknownKey(key) }
            change(&state.records[index])
        }
    }
}
