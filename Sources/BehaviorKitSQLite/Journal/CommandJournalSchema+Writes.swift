import Commands
import Foundation
import GRDB

/// The journal's writes, each a few statements inside the batch's write transaction (an
/// IMMEDIATE one: SQLite's single writer makes each of them atomic across processes).
///
/// Every statement comes from the connection's statement cache (`cachedStatement(sql:)`), so that
/// its SQL is prepared, and checked by GRDB's authorizer, once per connection rather than once per
/// write: its text is a constant, and values go in as arguments only.
extension CommandJournalSchema {
    static func begin(
        _ entry: CommandJournalEntry, _ lease: JournalLease, queue: String? = nil, now: Int64, _ db: Database,
        path: String
    ) throws -> CommandJournalBegin {
        let until = saturating(now, lease.duration)
        guard let existing = try fetch(entry.idempotencyKey, db, path: path) else {
            return .started(try insert(entry, owner: lease.owner, until: until, queue: queue, now: now, db))
        }
        guard existing.entry == entry else { throw CommandJournalError.conflictingEntry(key: entry.idempotencyKey) }
        if existing.isSettled { return .settled(existing) }
        guard entry.parentKey == nil, let expiry = existing.leaseExpiresAt, expiry.journalMilliseconds <= now else {
            return .busy(existing)
        }
        try hold(entry.idempotencyKey, lease, until: until, now: now, db)
        return .resumed(try fetch(entry.idempotencyKey, db, path: path) ?? existing)
    }

    static func append(
        _ entry: CommandJournalEntry, _ lease: JournalLease, now: Int64, _ db: Database, path: String
    ) throws -> CommandJournalRecord {
        guard let parentKey = entry.parentKey else {
            throw CommandJournalError.conflictingEntry(key: entry.idempotencyKey)
        }
        try checkHolds(parentKey, lease, db)
        if let existing = try fetch(entry.idempotencyKey, db, path: path) {
            guard existing.entry == entry else { throw CommandJournalError.conflictingEntry(key: entry.idempotencyKey) }
            return existing
        }
        return try insert(entry, owner: nil, until: nil, queue: nil, now: now, db)
    }

    static func settle(
        _ key: String, _ settlement: CommandJournalSettlement, _ lease: JournalLease, now: Int64, _ db: Database
    ) throws {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT parentKey, status FROM commandRecord WHERE key = ?"), arguments: [key])
        else { throw CommandJournalError.unknownKey(key) }
        let parentKey: String? = row["parentKey"]
        let status: String = row["status"]
        if status == settlement.status.rawValue && status != CommandJournalStatus.pending.rawValue { return }
        try checkHolds(parentKey ?? key, lease, db)
        try write(key, settlement, now: now, db)
    }

    /// Writes `settlement` on the record `key`, checked (it exists, its root is held) before.
    private static func write(
        _ key: String, _ settlement: CommandJournalSettlement, now: Int64, _ db: Database
    ) throws {
        let output: Data? = if case .done(let output?) = settlement { Data(output) } else { nil }
        let reason: String? = if case .failed(let reason) = settlement { reason } else { nil }
        try db.cachedStatement(
            sql: """
                UPDATE commandRecord SET status = ?, output = coalesce(?, output),
                    failureReason = CASE WHEN ? = 'done' THEN NULL ELSE coalesce(?, failureReason) END,
                    leaseExpiresAt = CASE WHEN parentKey IS NULL THEN NULL ELSE leaseExpiresAt END, updatedAt = ?
                WHERE key = ?
                """
        ).execute(arguments: [settlement.status.rawValue, output, settlement.status.rawValue, reason, now, key])
    }

    /// Settles `change`, writing a child that is not there yet with its entry.
    static func settle(
        _ change: CommandJournalChange, _ lease: JournalLease, now: Int64, _ db: Database, path: String
    ) throws {
        if let entry = change.entry {
            if let existing = try fetch(change.key, db, path: path) {
                guard existing.entry == entry else { throw CommandJournalError.conflictingEntry(key: change.key) }
            } else {
                guard let parentKey = entry.parentKey else { throw CommandJournalError.unknownKey(change.key) }
                try checkHolds(parentKey, lease, db)
                _ = try insert(entry, owner: nil, until: nil, queue: nil, now: now, db)
                // Just written, pending, under the root held above: settled without reading either again.
                try write(change.key, change.settlement, now: now, db)
                return
            }
        }
        try settle(change.key, change.settlement, lease, now: now, db)
    }

    static func renew(_ attempts: [String: Int], _ lease: JournalLease, now: Int64, _ db: Database) throws -> [String] {
        var kept: [String] = []
        let until = saturating(now, lease.duration)
        let statement = try db.cachedStatement(
            sql: """
                UPDATE commandRecord SET leaseExpiresAt = ?
                WHERE key = ? AND owner = ? AND attempts = ? AND status = 'pending' AND parentKey IS NULL
                """)
        for (key, token) in attempts.sorted(by: { $0.key < $1.key }) {
            try statement.execute(arguments: [until, key, lease.owner, token])
            if db.changesCount == 1 { kept.append(key) }
        }
        return kept
    }

    static func release(_ key: String, _ lease: JournalLease, after delay: Duration, now: Int64, _ db: Database) throws
    {
        try db.cachedStatement(
            sql: """
                UPDATE commandRecord SET owner = NULL, leaseExpiresAt = ?, updatedAt = ?
                WHERE key = ? AND owner = ? AND (? IS NULL OR attempts = ?) AND status = 'pending'
                    AND parentKey IS NULL
                """
        ).execute(arguments: [saturating(now, delay), now, key, lease.owner, lease.token, lease.token])
    }

    static func claim(
        _ limit: Int, from queue: String?, concurrency: Int?, perPartition: Int? = nil, deadOwner: String?,
        _ lease: JournalLease, now: Int64, _ db: Database, path: String
    ) throws -> CommandJournalClaim {
        if try isPaused(queue, db) { return CommandJournalClaim(records: [], nextDue: nil) }
        var room = max(0, limit)
        if let concurrency {
            let running =
                try Int.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT count(*) FROM commandRecord
                            WHERE status = 'pending' AND parentKey IS NULL AND queue IS ? AND owner IS NOT NULL
                                AND leaseExpiresAt > ?
                            """),
                    arguments: [queue, now]) ?? 0
            room = min(room, max(0, concurrency - running))
        }
        var gate = try rateGate(queue, now: now, db)
        if let rated = gate { room = rated.room(room) }
        var claimed: [CommandJournalRecord] = []
        var previousOwners: [String: String] = [:]
        if perPartition != nil || gate?.limitsPartitions == true, room > 0 {
            let picked = try partitionedCandidates(
                room, from: queue, perPartition: perPartition.map { max(1, $0) }, gate: &gate, deadOwner: deadOwner,
                now: now, db)
            let until = saturating(now, lease.duration)
            for (key, owner) in picked {
                if let owner { previousOwners[key] = owner }
                try hold(key, lease, until: until, now: now, db)
                if let record = try fetch(key, db, path: path) { claimed.append(record) }
            }
        } else if room > 0 {
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT key, owner FROM commandRecord
                        WHERE status = 'pending' AND parentKey IS NULL AND queue IS ?
                            AND (leaseExpiresAt <= ? OR (owner = ? AND leaseExpiresAt IS NOT NULL))
                        ORDER BY priority DESC, sequence LIMIT ?
                        """),
                arguments: [queue, now, deadOwner, room])
            let until = saturating(now, lease.duration)
            for row in rows {
                guard let key: String = row["key"] else { continue }
                if let owner: String = row["owner"] { previousOwners[key] = owner }
                try hold(key, lease, until: until, now: now, db)
                gate?.start(partition: nil)
                if let record = try fetch(key, db, path: path) { claimed.append(record) }
            }
        }
        let next = try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT min(leaseExpiresAt) FROM commandRecord
                    WHERE status = 'pending' AND parentKey IS NULL AND queue IS ? AND leaseExpiresAt > ?
                    """),
            arguments: [queue, now])
        guard var gate else {
            return CommandJournalClaim(
                records: claimed, nextDue: next.map { .milliseconds($0 &- now) }, previousOwners: previousOwners)
        }
        // Due records left behind: held back by the limit (or another), due again when a start is.
        if try hasDueRecord(queue, now: now, db) { gate.heldBack() }
        try keep(gate, of: queue, now: now, db)
        let due = gate.nextDue(next.map { $0 &- now })
        return CommandJournalClaim(
            records: claimed, nextDue: due.map { .milliseconds($0) }, previousOwners: previousOwners,
            heldByRateLimit: gate.heldByQueueLimit)
    }

    static func enqueue(
        _ entry: CommandJournalEntry, queue: String, after delay: Duration, priority: Int, partition: String? = nil,
        traceContext: [String: String]? = nil, now: Int64, _ db: Database, path: String
    ) throws -> CommandJournalRecord {
        if let existing = try fetch(entry.idempotencyKey, db, path: path) {
            guard existing.entry == entry else { throw CommandJournalError.conflictingEntry(key: entry.idempotencyKey) }
            return existing
        }
        var record = try insert(
            entry, owner: nil, until: saturating(now, delay), queue: queue, priority: priority, now: now, db)
        try keepPartition(partition, of: entry.idempotencyKey, db)
        try keepTrace(traceContext, of: entry.idempotencyKey, db)
        if traceContext?.isEmpty == false { record.traceContext = traceContext }
        return record
    }

    /// Deletes at most `limit` settled roots (the first settled first) that settled before
    /// `date`, of `statuses` (empty: any) and `queue` (`nil`: any), none with a pending child,
    /// with their children and logged attempts; returns how many records went.
    static func prune(
        settledBefore date: Int64, statuses: Set<CommandJournalStatus>, queue: String?, limit: Int?, _ db: Database
    ) throws -> Int {
        var conditions = ["r.parentKey IS NULL", "r.status != 'pending'", "r.updatedAt < ?"]
        var arguments: StatementArguments = [date]
        if !statuses.isEmpty {
            let settled = statuses.filter { $0 != .pending }.map(\.rawValue).sorted()
            conditions.append("r.status IN (\(settled.map { _ in "?" }.joined(separator: ", ")))")
            for status in settled { _ = arguments.append(contentsOf: [status]) }
            if settled.isEmpty { return 0 }
        }
        if let queue {
            conditions.append("r.queue = ?")
            _ = arguments.append(contentsOf: [queue])
        }
        conditions.append(
            "NOT EXISTS (SELECT 1 FROM commandRecord c WHERE c.parentKey = r.key AND c.status = 'pending')")
        _ = arguments.append(contentsOf: [limit.map { Int64($0) } ?? -1])
        let keys = try String.fetchAll(
            db,
            sql: """
                SELECT r.key FROM commandRecord r WHERE \(conditions.joined(separator: " AND "))
                ORDER BY r.updatedAt, r.sequence LIMIT ?
                """, arguments: arguments)
        var deleted = 0
        let hasAttempts = try db.tableExists("commandAttempt")
        for start in stride(from: 0, to: keys.count, by: 400) {
            let chunk = Array(keys[start..<min(start + 400, keys.count)])
            let list = chunk.map { _ in "?" }.joined(separator: ", ")
            let values = StatementArguments(chunk)
            if hasAttempts {
                try db.execute(
                    sql: """
                        DELETE FROM commandAttempt
                        WHERE key IN (\(list)) OR key IN (SELECT key FROM commandRecord WHERE parentKey IN (\(list)))
                        """, arguments: values + values)
            }
            try db.execute(sql: "DELETE FROM commandRecord WHERE parentKey IN (\(list))", arguments: values)
            deleted += db.changesCount
            try db.execute(sql: "DELETE FROM commandRecord WHERE key IN (\(list))", arguments: values)
            deleted += db.changesCount
        }
        return deleted
    }

    static func insert(
        _ entry: CommandJournalEntry, owner: String?, until: Int64?, queue: String?,
        priority: Int = CommandQueue.defaultPriority, now: Int64, _ db: Database
    ) throws -> CommandJournalRecord {
        let attempts = owner == nil ? 0 : 1
        try db.cachedStatement(
            sql: """
                INSERT INTO commandRecord
                    (key, kind, payload, parentKey, status, owner, leaseExpiresAt, queue, attempts, createdAt, updatedAt,
                    priority)
                VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            entry.idempotencyKey, entry.kind, Data(entry.payload), entry.parentKey, owner, until, queue, attempts, now,
            now, priority,
        ])
        return CommandJournalRecord(
            sequence: db.lastInsertedRowID, entry: entry, status: .pending, owner: owner,
            leaseExpiresAt: until.map(Date.init(journalMilliseconds:)), queue: queue, attempts: attempts,
            createdAt: Date(journalMilliseconds: now), priority: priority)
    }

    /// Holds `key` for `lease` until `until`; a record taken from its queue (no owner) keeps how
    /// long it waited since it fell due (``pickupAssignment``), where the table keeps pickups.
    private static func hold(_ key: String, _ lease: JournalLease, until: Int64, now: Int64, _ db: Database) throws {
        let pickups = try keepsPickups(db)
        try db.cachedStatement(
            sql: """
                UPDATE commandRecord SET owner = ?, leaseExpiresAt = ?, attempts = attempts + 1, updatedAt = ?
                \(pickups ? pickupAssignment : "") WHERE key = ?
                """
        ).execute(arguments: pickups ? [lease.owner, until, now, now, key] : [lease.owner, until, now, key])
    }

    /// Throws unless `lease`'s owner holds the pending root `key`, at the lease's token when it
    /// names one.
    static func checkHolds(_ key: String, _ lease: JournalLease, _ db: Database) throws {
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT owner, status, parentKey, attempts FROM commandRecord WHERE key = ?"),
            arguments: [key])
        let owner: String? = row?["owner"]
        let status: String? = row?["status"]
        let parentKey: String? = row?["parentKey"]
        let attempts: Int = row?["attempts"] ?? 0
        guard lease.holds(owner: owner, attempts: attempts), status == CommandJournalStatus.pending.rawValue,
            parentKey == nil
        else {
            throw CommandJournalError.leaseLost(key: key, owner: owner)
        }
    }

    /// `now` plus `duration` in milliseconds, saturating.
    static func saturating(_ now: Int64, _ duration: Duration) -> Int64 {
        let (sum, overflow) = now.addingReportingOverflow(duration.journalMilliseconds)
        return overflow ? (duration < .zero ? .min : .max) : sum
    }
}

extension CommandJournalSchema {
    /// How long a write may hold the journal's lock before its time is given back to the leases.
    static let stallThreshold: Int64 = 250

    /// Gives the time a write held the journal's lock, when it held it for more than
    /// ``stallThreshold`` (its process was paused, its disk stalled), back to the leases that were
    /// live when it began: SQLite has one writer, so while the write held the lock no worker could
    /// renew — and none could claim either. A lease must not lapse for another's stall alone.
    /// Short writes give nothing back, so that a busy journal's time keeps running.
    static func giveBackStall(heldSince start: Int64, until end: Date, _ db: Database) throws {
        let held = end.journalMilliseconds &- start
        guard held > stallThreshold else { return }
        try db.cachedStatement(
            sql: """
                UPDATE commandRecord
                SET leaseExpiresAt = CASE WHEN leaseExpiresAt > 9223372036854775807 - ?1 THEN 9223372036854775807
                    ELSE leaseExpiresAt + ?1 END
                WHERE status = 'pending' AND parentKey IS NULL AND owner IS NOT NULL AND leaseExpiresAt > ?2
                """
        ).execute(arguments: [held, start])
    }
}
