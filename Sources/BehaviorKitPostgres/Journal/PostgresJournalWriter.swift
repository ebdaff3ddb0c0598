import Commands
import Foundation
import Logging
import PostgresNIO

/// Runs the journal's writes on a connection: one statement each (a claim under a
/// concurrency limit takes the queue's lock first), answered from the rows it returns. A
/// conflict or a lost lease is a ``CommandJournalError`` thrown after a statement that changed
/// nothing, so the batch's transaction goes on.
struct PostgresJournalWriter: Sendable {
    let statements: PostgresJournalStatements
    let names: PostgresJournalNames
    let clock: (any WallClock)?
    let logger: Logger

    /// How often a statement that lost a race with another writer's insert is run again.
    static let raceRetries = 4

    func apply(
        _ write: PostgresJournalWrite, on connection: PostgresConnection
    ) async throws
        -> PostgresJournalWriteResult
    {
        switch write {
        case .begin(let entry, let lease): .begun(try await begin(entry, lease, on: connection))
        case .append(let entry, let lease): .record(try await append(entry, lease, on: connection))
        case .settle(let key, let settlement, let lease):
            try await settle(key, settlement, lease, on: connection)
        case .renew(let keys, let lease): .keys(try await renew(keys, lease, on: connection))
        case .release(let key, let lease, let delay):
            try await release(key, lease, delay, on: connection)
        case .claim(let limit, let queue, let concurrency, let deadOwner, let lease):
            .claimed(try await claim(limit, queue, concurrency, deadOwner, lease, on: connection))
        case .enqueue(let entry, let queue, let delay): .record(try await enqueue(entry, queue, delay, on: connection))
        case .prune(let date): .count(try await prune(date, on: connection))
        }
    }

    /// The first bindings of every write: the time now, or NULL for the server's clock.
    private func bindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 8)
        bindings.append(clock.map { $0.currentDate.journalMilliseconds.clampedForJournal })
        return bindings
    }

    private func entryBindings(_ entry: CommandJournalEntry) -> PostgresBindings {
        var bindings = bindings()
        bindings.append(entry.idempotencyKey)
        bindings.append(entry.kind)
        bindings.append(ByteBuffer(bytes: entry.payload))
        bindings.append(entry.parentKey)
        return bindings
    }

    private func begin(
        _ entry: CommandJournalEntry, _ lease: JournalLease, on connection: PostgresConnection
    ) async throws -> CommandJournalBegin {
        var bindings = entryBindings(entry)
        bindings.append(lease.owner)
        bindings.append(lease.duration.journalMilliseconds.clampedForJournal)
        for _ in 0..<Self.raceRetries {
            guard let row = try await connection.run(statements.begin, bindings, logger: logger).first else {
                continue  // another writer inserted the key since this statement's snapshot
            }
            let values = PostgresJournalRow(row, names)
            let outcome = try values.value(0, as: String.self)
            let now = try values.value(1, as: Int64.self)
            guard let record = try values.record(at: 2) else { continue }
            switch outcome {
            case "started": return .started(record)
            case "resumed": return .resumed(record)
            default:
                guard record.entry == entry else {
                    throw CommandJournalError.conflictingEntry(key: entry.idempotencyKey)
                }
                if record.isSettled { return .settled(record) }
                if entry.parentKey == nil, let expiry = record.leaseExpiresAt, expiry.journalMilliseconds <= now {
                    continue  // it looked free but another worker took it first: look again
                }
                return .busy(record)
            }
        }
        throw raced(entry.idempotencyKey)
    }

    private func append(
        _ entry: CommandJournalEntry, _ lease: JournalLease, on connection: PostgresConnection
    ) async throws -> CommandJournalRecord {
        guard let parentKey = entry.parentKey else {
            throw CommandJournalError.conflictingEntry(key: entry.idempotencyKey)
        }
        var bindings = entryBindings(entry)
        bindings.append(lease.owner)
        for _ in 0..<Self.raceRetries {
            guard let row = try await connection.run(statements.append, bindings, logger: logger).first else {
                continue
            }
            let values = PostgresJournalRow(row, names)
            guard try values.value(2, as: Bool.self) else {
                throw CommandJournalError.leaseLost(key: parentKey, owner: try values.value(1, as: String?.self))
            }
            guard let outcome = try values.value(3, as: String?.self), let record = try values.record(at: 4) else {
                continue
            }
            if outcome == "found", record.entry != entry {
                throw CommandJournalError.conflictingEntry(key: entry.idempotencyKey)
            }
            return record
        }
        throw raced(entry.idempotencyKey)
    }

    private func settle(
        _ key: String, _ settlement: CommandJournalSettlement, _ lease: JournalLease,
        on connection: PostgresConnection
    ) async throws -> PostgresJournalWriteResult {
        var bindings = bindings()
        bindings.append(key)
        bindings.append(settlement.status.rawValue)
        if case .done(let output?) = settlement {
            bindings.append(ByteBuffer(bytes: output))
        } else {
            bindings.appendNull()
        }
        if case .failed(let reason) = settlement { bindings.append(reason) } else { bindings.appendNull() }
        bindings.append(lease.owner)
        guard let row = try await connection.run(statements.settle, bindings, logger: logger).first else {
            throw CommandJournalError.unknownKey(key)
        }
        let values = PostgresJournalRow(row, names)
        let status = try values.value(1, as: String.self)
        if status == settlement.status.rawValue && settlement.status != .pending { return .none }
        if try values.value(4, as: Bool.self) { return .none }
        let root = try values.value(2, as: String?.self) ?? values.value(0, as: String?.self) ?? key
        throw CommandJournalError.leaseLost(key: root, owner: try values.value(3, as: String?.self))
    }

    private func renew(
        _ keys: [String], _ lease: JournalLease, on connection: PostgresConnection
    ) async throws
        -> [String]
    {
        guard !keys.isEmpty else { return [] }
        var bindings = bindings()
        bindings.append(keys)
        bindings.append(lease.owner)
        bindings.append(lease.duration.journalMilliseconds.clampedForJournal)
        let rows = try await connection.run(statements.renew, bindings, logger: logger)
        var renewed: Set<String> = []
        for row in rows { renewed.insert(try PostgresJournalRow(row, names).value(0, as: String.self)) }
        return keys.filter(renewed.contains)
    }

    private func release(
        _ key: String, _ lease: JournalLease, _ delay: Duration, on connection: PostgresConnection
    ) async throws -> PostgresJournalWriteResult {
        var bindings = bindings()
        bindings.append(key)
        bindings.append(lease.owner)
        bindings.append(delay.journalMilliseconds.clampedForJournal)
        _ = try await connection.run(statements.release, bindings, logger: logger)
        return .none
    }

    private func claim(
        _ limit: Int, _ queue: String?, _ concurrency: Int?, _ deadOwner: String?, _ lease: JournalLease,
        on connection: PostgresConnection
    ) async throws -> CommandJournalClaim {
        if concurrency != nil {
            var lock = PostgresBindings(capacity: 2)
            lock.append("behaviorkit.queue." + names.table)
            lock.append(queue ?? "")
            _ = try await connection.run(statements.lockQueue, lock, logger: logger)
        }
        var bindings = bindings()
        bindings.append(queue)
        bindings.append(Int64(limit))
        bindings.append(concurrency.map(Int64.init))
        bindings.append(deadOwner)
        bindings.append(lease.owner)
        bindings.append(lease.duration.journalMilliseconds.clampedForJournal)
        let statement = queue == nil ? statements.claimDirect : statements.claimQueue
        let rows = try await connection.run(statement, bindings, logger: logger)
        var now: Int64 = 0
        var next: Int64?
        var records: [CommandJournalRecord] = []
        for row in rows {
            let values = PostgresJournalRow(row, names)
            now = try values.value(0, as: Int64.self)
            next = try values.value(1, as: Int64?.self)
            if let record = try values.record(at: 2) { records.append(record) }
        }
        records.sort { $0.sequence < $1.sequence }
        if !records.isEmpty {
            let held = now &+ lease.duration.journalMilliseconds.clampedForJournal
            next = min(next ?? held, held)
        }
        return CommandJournalClaim(records: records, nextDue: next.map { .milliseconds($0 &- now) })
    }

    private func enqueue(
        _ entry: CommandJournalEntry, _ queue: String, _ delay: Duration, on connection: PostgresConnection
    ) async throws -> CommandJournalRecord {
        var bindings = entryBindings(entry)
        bindings.append(queue)
        bindings.append(delay.journalMilliseconds.clampedForJournal)
        for _ in 0..<Self.raceRetries {
            guard let row = try await connection.run(statements.enqueue, bindings, logger: logger).first,
                let record = try PostgresJournalRow(row, names).record(at: 1)
            else { continue }
            guard record.entry == entry else { throw CommandJournalError.conflictingEntry(key: entry.idempotencyKey) }
            return record
        }
        throw raced(entry.idempotencyKey)
    }

    private func prune(_ date: Int64, on connection: PostgresConnection) async throws -> Int {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(date)
        guard let row = try await connection.run(statements.prune, bindings, logger: logger).first else { return 0 }
        return Int(clamping: try PostgresJournalRow(row, names).value(0, as: Int64.self))
    }

    private func raced(_ key: String) -> PostgresCommandJournalError {
        names.error(.ioFailed, "the record '\(key)' kept changing under other writers; nothing was written for it")
    }
}
