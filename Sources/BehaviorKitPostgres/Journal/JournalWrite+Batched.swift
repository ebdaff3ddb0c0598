import BehaviorKitSync
public import Commands
import Foundation

extension PostgresCommandJournal {
    /// Begins `entry` under `lease`; see `CommandJournal.begin(_:lease:)`.
    public func begin(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalBegin {
        guard case .begun(let begun) = try await submit(.begin(entry, lease)) else { throw unexpected() }
        return begun
    }

    /// Appends a child of a root `lease` holds; see `CommandJournal.append(_:lease:)`.
    public func append(_ entry: CommandJournalEntry, lease: JournalLease) async throws -> CommandJournalRecord {
        guard case .record(let record) = try await submit(.append(entry, lease)) else { throw unexpected() }
        return record
    }

    /// Settles `key`, durably; see `CommandJournal.settle(_:as:lease:)`.
    public func settle(_ key: String, as settlement: CommandJournalSettlement, lease: JournalLease) async throws {
        _ = try await submit(.settle(key, settlement, lease))
    }

    /// Makes `changes` in one transaction, all or none; see `CommandJournal.settle(_:lease:)`.
    public func settle(_ changes: [CommandJournalChange], lease: JournalLease) async throws {
        guard !changes.isEmpty else { return }
        _ = try await submit(.changes(changes, lease))
    }

    /// Renews the leases on `attempts`; see `CommandJournal.renew(_:lease:)`.
    public func renew(_ attempts: [String: Int], lease: JournalLease) async throws -> [String] {
        guard case .keys(let kept) = try await submit(.renew(attempts, lease)) else { throw unexpected() }
        return kept
    }

    /// Releases `key`; see `CommandJournal.release(_:lease:after:)`.
    public func release(_ key: String, lease: JournalLease, after delay: Duration) async throws {
        _ = try await submit(.release(key, lease, delay))
    }

    /// Claims due records with `FOR UPDATE SKIP LOCKED`, so that workers claiming together
    /// never wait on each other; with a `concurrency`, claimers of the queue take its advisory
    /// lock first, so that the limit holds across every process. See
    /// `CommandJournal.claim(_:from:concurrency:takingOverFrom:lease:)`.
    public func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, takingOverFrom deadOwner: String?, lease: JournalLease
    ) async throws -> CommandJournalClaim {
        let write = PostgresJournalWrite.claim(
            limit, queue: queue, concurrency: concurrency, deadOwner: deadOwner, lease)
        guard case .claimed(let claim) = try await submit(write) else { throw unexpected() }
        return claim
    }

    /// Enqueues `entry`, durably; see `CommandJournal.enqueue(_:queue:after:)`.
    public func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration
    ) async throws -> CommandJournalRecord {
        guard case .record(let record) = try await submit(.enqueue(entry, queue, delay)) else { throw unexpected() }
        return record
    }

    /// Passes the gate ``close()`` shuts, and waits for the batch holding `write` to commit.
    private func submit(_ write: PostgresJournalWrite) async throws -> PostgresJournalWriteResult {
        try writer.validate(write)
        try connections.enter()
        defer { connections.leave() }
        return try await writes.submit(write)
    }

    private func unexpected() -> PostgresCommandJournalError {
        writer.names.error(.ioFailed, "a write gave back an unexpected answer")
    }
}
