import BehaviorKitSync
public import Commands

/// The checks every ``CommandJournal`` must pass: the in-memory journal here, a SQLite or a
/// PostgreSQL one elsewhere.
///
/// Call it from a test with a function that makes an empty journal; it throws a
/// ``CommandJournalConformanceFailure`` naming the first rule broken.
///
/// ```swift
/// @Test func sqliteJournalConforms() async throws {
///     try await CommandJournalConformance.check { try SQLiteCommandJournal(path: temporaryFile()) }
/// }
/// ```
public enum CommandJournalConformance {
    /// Runs every check, each on a new journal from `makeJournal`.
    public static func check(_ makeJournal: () async throws -> any CommandJournal) async throws {
        try await appendKeepsOrderAndPending(makeJournal())
        try await markingFinishesRecords(makeJournal())
        try await appendIsIdempotent(makeJournal())
        try await unknownAndConflictingKeysAreRefused(makeJournal())
        try await runExecutesOnce(makeJournal())
        try await concurrentAppendsAreAllKept(makeJournal())
        try await compensatedAndChildRecordsAreListed(makeJournal())
        try await recoveryReplaysAndKeepsUnregistered(makeJournal())
        try await failingTransactionIsCompensatedInTheJournal(makeJournal())
        try await halfDoneTransactionIsCompensatedOnRecovery(makeJournal())
        try await halfDoneTransactionIsCompletedOnForwardRecovery(makeJournal())
    }

    static func appendKeepsOrderAndPending(_ journal: any CommandJournal) async throws {
        let check = "append writes pending records in order"
        var sequences: [Int64] = []
        for key in ["a", "b", "c"] {
            let record = try await journal.append(entry(key))
            try expect(record.status == .pending, check, "record '\(key)' has status \(record.status)")
            try expect(record.entry == entry(key), check, "record '\(key)' holds \(record.entry)")
            sequences.append(record.sequence)
        }
        try expect(sequences == sequences.sorted() && Set(sequences).count == 3, check, "sequences \(sequences)")
        let keys = try await journal.unfinished().map(\.entry.idempotencyKey)
        try expect(keys == ["a", "b", "c"], check, "unfinished() lists \(keys)")
    }

    static func markingFinishesRecords(_ journal: any CommandJournal) async throws {
        let check = "markDone and markFailed finish records"
        for key in ["a", "b", "c"] { _ = try await journal.append(entry(key)) }
        try await journal.markDone("a")
        try await journal.markFailed("c", reason: "disk full")
        let done = try await journal.record(forKey: "a")
        try expect(done?.status == .done, check, "record 'a' after markDone: \(String(describing: done))")
        let failed = try await journal.record(forKey: "c")
        try expect(
            failed?.status == .failed && failed?.failureReason == "disk full", check,
            "record 'c' after markFailed: \(String(describing: failed))")
        let keys = try await journal.unfinished().map(\.entry.idempotencyKey)
        try expect(keys == ["b"], check, "unfinished() lists \(keys)")
        let missing = try await journal.record(forKey: "zzz")
        try expect(missing == nil, check, "record(forKey:) of an unknown key gives \(String(describing: missing))")
    }

    static func appendIsIdempotent(_ journal: any CommandJournal) async throws {
        let check = "appending a key again returns the existing record"
        let first = try await journal.append(entry("a"))
        try await journal.markDone("a")
        let again = try await journal.append(entry("a"))
        try expect(
            again.sequence == first.sequence && again.status == .done, check,
            "second append gave \(again), first was \(first)")
        let unfinished = try await journal.unfinished()
        try expect(unfinished.isEmpty, check, "unfinished() lists \(unfinished)")
    }

    static func unknownAndConflictingKeysAreRefused(_ journal: any CommandJournal) async throws {
        let check = "unknown and conflicting keys are refused"
        do {
            try await journal.markDone("nope")
            throw CommandJournalConformanceFailure(check: check, detail: "markDone of an unknown key did not throw")
        } catch let error as CommandJournalError {
            try expect(error == .unknownKey("nope"), check, "markDone of an unknown key threw \(error)")
        }
        _ = try await journal.append(entry("a"))
        do {
            _ = try await journal.append(CommandJournalEntry(idempotencyKey: "a", kind: "other", payload: [9]))
            throw CommandJournalConformanceFailure(check: check, detail: "a conflicting append did not throw")
        } catch let error as CommandJournalError {
            try expect(error == .conflictingEntry(key: "a"), check, "a conflicting append threw \(error)")
        }
    }

    static func runExecutesOnce(_ journal: any CommandJournal) async throws {
        let check = "run executes a command once per key"
        let count = LockedValue(0)
        let command = ClosureCommand("count") { count.withLock { $0 += 1 } }
        let first = try await journal.run(command, as: entry("once"))
        let second = try await journal.run(command, as: entry("once"))
        try expect(
            first == .executed && second == .alreadyDone && count.withLock({ $0 }) == 1, check,
            "results \(first), \(second); executed \(count.withLock { $0 }) times")
        struct Boom: Error {}
        let failing = ClosureCommand("fail") { throw Boom() }
        do {
            _ = try await journal.run(failing, as: entry("fails"))
            throw CommandJournalConformanceFailure(check: check, detail: "a failing command did not rethrow")
        } catch is Boom {}
        let record = try await journal.record(forKey: "fails")
        try expect(record?.status == .failed, check, "a failing command left \(String(describing: record))")
    }

    static func concurrentAppendsAreAllKept(_ journal: any CommandJournal) async throws {
        let check = "concurrent appends are all kept"
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask { _ = try await journal.append(entry("k\(index)")) }
            }
            try await group.waitForAll()
        }
        let records = try await journal.unfinished()
        let sequences = records.map(\.sequence)
        try expect(
            records.count == 100 && Set(sequences).count == 100 && sequences == sequences.sorted(), check,
            "\(records.count) records, \(Set(sequences).count) distinct sequences")
    }

    static func entry(_ key: String) -> CommandJournalEntry {
        CommandJournalEntry(idempotencyKey: key, kind: "test.\(key)", payload: Array(key.utf8))
    }

    static func expect(_ condition: Bool, _ check: String, _ detail: @autoclosure () -> String) throws {
        if !condition { throw CommandJournalConformanceFailure(check: check, detail: detail()) }
    }
}

/// A rule of ``CommandJournal`` that a journal broke, with what it did instead.
public struct CommandJournalConformanceFailure: Error, CustomStringConvertible, Sendable {
    /// The rule checked.
    public let check: String
    /// What the journal did.
    public let detail: String

    /// "<check>: <detail>".
    public var description: String { "\(check): \(detail)" }
}
