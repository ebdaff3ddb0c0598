import BehaviorKitSync
public import Commands
import Foundation
public import GRDB
import Logging

extension SQLiteCommandJournal {
    /// `true`: SQLite has one writer, so no claim runs while a renewal waits for the write lock,
    /// and a write that held the lock for more than 250 ms (its process paused, its disk
    /// stalled) gives that time back to the leases that were live when it began. A worker waits
    /// for its renewal's answer instead of giving its work up during such a stall.
    public var leasesOutlastWriteStalls: Bool { true }

    /// Settles `context`'s record inside a transaction of the application's database (the
    /// journal's table in it: ``init(database:path:clock:logger:)``), so that the business write and
    /// the settlement commit together. The worker's own settlement afterwards finds it done.
    ///
    /// ```swift
    /// func execute(in context: DurableContext) async throws -> Int {
    ///     try await dbPool.write { db in
    ///         let id = try order.inserted(db).id
    ///         try SQLiteCommandJournal.settle(context, as: .done(output: nil), in: db)
    ///         return id
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: `CommandJournalError.leaseLost(key:owner:)` when the worker no longer holds it
    ///   at the context's attempt (a later attempt began: this one is fenced out).
    public static func settle(
        _ context: DurableContext, as settlement: CommandJournalSettlement, in db: Database
    ) throws {
        let lease = JournalLease(owner: context.owner, duration: .zero, token: context.fencingToken)
        try CommandJournalSchema.settle(context.key, settlement, lease, now: Date().journalMilliseconds, db)
    }

    /// Finishes the writes under way and closes the file (a database you gave the journal is
    /// left open): later calls throw a `.closed` error. A journal that owns its file first
    /// checkpoints its WAL into it (TRUNCATE), so that the main file alone, copied without its
    /// WAL, holds every record; a checkpoint that other processes' reads keep from finishing
    /// is left to SQLite's next one.
    public func close() async throws {
        await watcher.stop()
        channel.queueSignal.finish()
        channel.settlementSignal.finish()
        await writes.close()
        if ownsDatabase {
            do {
                _ = try? await database.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                }
                try database.close()
            } catch {
                throw SQLiteStoreError(path: path, error, opening: false)
            }
        }
    }

    /// The typed writes over `writes`; a write after ``close()`` throws a `.closed` error.
    static func channel(
        _ writes: GroupCommit<JournalWrite, JournalWriteOutcome>, path: String
    ) -> JournalWriteChannel {
        JournalWriteChannel(
            unexpected: {
                SQLiteStoreError(code: .ioFailed, path: path, reason: "a write gave back an unexpected answer")
            },
            submit: { write in
                do {
                    return try await writes.submit(write)
                } catch is GroupCommit<JournalWrite, JournalWriteOutcome>.Closed {
                    throw SQLiteStoreError(code: .closed, path: path, reason: "the journal was closed")
                }
            },
            submitAll: { batch in
                await writes.submitAll(batch).map { result in
                    result.mapError { error in
                        guard error is GroupCommit<JournalWrite, JournalWriteOutcome>.Closed else { return error }
                        return SQLiteStoreError(code: .closed, path: path, reason: "the journal was closed")
                    }
                }
            })
    }

    static func groupCommit(
        _ database: any DatabaseWriter, path: String, clock: any WallClock, logger: Logger?
    ) -> GroupCommit<JournalWrite, JournalWriteOutcome> {
        let reporter = JournalCommitReporter(journal: "sqlite", logger: logger)
        return GroupCommit(commitsLoneWritesInCaller: true) { operations in
            await commit(operations, database, path: path, clock: clock, reporter: reporter)
        }
    }

    /// Commits `operations` in one transaction; times it when a metrics backend is there.
    private static func commit(
        _ operations: [JournalWrite], _ database: any DatabaseWriter, path: String, clock: any WallClock,
        reporter: JournalCommitReporter
    ) async -> [Result<JournalWriteOutcome, any Error>] {
        let started = reporter.isMeasuring ? ContinuousClock.now : nil
        do {
            let results = try await write(operations, database, path: path, clock: clock)
            if let started { reporter.committed(operations.count, in: .now - started) }
            if operations.contains(where: \.makesNewWork) { SQLiteFileChanges.announce(path) }
            return results
        } catch {
            let failure = SQLiteStoreError(path: path, error, opening: false)
            reporter.failed(operations.count, in: started.map { .now - $0 }, failure)
            return operations.map { _ in .failure(failure) }
        }
    }

    private static func write(
        _ operations: [JournalWrite], _ database: any DatabaseWriter, path: String, clock: any WallClock
    ) async throws -> [Result<JournalWriteOutcome, any Error>] {
        try await database.uncancelledWrite { db in
            let now = clock.currentDate.journalMilliseconds
            defer { try? CommandJournalSchema.giveBackStall(heldSince: now, until: clock.currentDate, db) }
            return try operations.map { operation in
                var result = JournalWriteOutcome.none
                do {
                    // A savepoint each: a caller's mistake undoes its own changes only.
                    try db.inSavepoint {
                        result = try apply(operation, now: now, db, path: path)
                        return .commit
                    }
                    return .success(result)
                } catch let error as CommandJournalError {
                    return .failure(error)  // this caller's mistake: the others go on
                }
            }
        }
    }

    private static func apply(
        _ operation: JournalWrite, now: Int64, _ db: Database, path: String
    ) throws -> JournalWriteOutcome {
        switch operation {
        case .begin(let entry, let lease):
            return .begun(try CommandJournalSchema.begin(entry, lease, now: now, db, path: path))
        case .beginOnQueue(let entry, let queue, let lease):
            return .begun(try CommandJournalSchema.begin(entry, lease, queue: queue, now: now, db, path: path))
        case .append(let entry, let lease):
            return .record(try CommandJournalSchema.append(entry, lease, now: now, db, path: path))
        case .settle(let key, let settlement, let lease):
            try CommandJournalSchema.settle(key, settlement, lease, now: now, db)
            return .none
        case .changes(let changes, let lease):
            for change in changes { try CommandJournalSchema.settle(change, lease, now: now, db, path: path) }
            return .none
        case .renew(let attempts, let lease):
            return .keys(try CommandJournalSchema.renew(attempts, lease, now: now, db))
        case .release(let key, let lease, let delay):
            try CommandJournalSchema.release(key, lease, after: delay, now: now, db)
            return .none
        case .claim(let limit, let queue, let concurrency, let perPartition, let deadOwner, let lease):
            var claim = try CommandJournalSchema.claim(
                limit, from: queue, concurrency: concurrency, perPartition: perPartition, deadOwner: deadOwner, lease,
                now: now, db, path: path)
            claim.records = try CommandJournalSchema.withTraces(claim.records, db)
            return .claimed(claim)
        case .enqueue(let entry, let queue, let delay, let priority, let partition, let traceContext):
            return .record(
                try CommandJournalSchema.enqueue(
                    entry, queue: queue, after: delay, priority: priority, partition: partition,
                    traceContext: traceContext, now: now, db, path: path))
        case .prune(let date, let statuses, let queue, let limit):
            let count = try CommandJournalSchema.prune(
                settledBefore: date, statuses: statuses, queue: queue, limit: limit, db)
            if count > 0 { try CommandJournalSchema.pruneTraces(db) }
            return .count(count)
        case .releaseFailed(let key, let lease, let delay, let failure):
            try CommandJournalSchema.release(key, lease, after: delay, failure: failure, now: now, db, path: path)
            return .none
        case .cancel(let key, let reason):
            return .record(try CommandJournalSchema.cancel(key, reason: reason, now: now, db, path: path))
        case .retry(let key):
            return .record(try CommandJournalSchema.retry(key, now: now, db, path: path))
        case .pause(let queue, let paused):
            try CommandJournalSchema.pause(queue, paused: paused, now: now, db)
            return .none
        case .wake(let key):
            return try CommandJournalSchema.wake(key, now: now, db, path: path).map { .record($0) } ?? .none
        case .logAttempt(let attempt, let key, let parentKey, let lease):
            guard (try? CommandJournalSchema.checkHolds(parentKey ?? key, lease, db)) != nil else { return .none }
            var logged = attempt
            logged.endedAt = Date(journalMilliseconds: now)
            try CommandJournalSchema.log(logged, of: key, db)
            return .none
        }
    }
}

extension JournalWrite {
    /// Whether the write gives other processes' workers new work to look for: an enqueue, or a
    /// queue's resume (``SQLiteFileChanges/announce(_:)`` tells them once it committed).
    fileprivate var makesNewWork: Bool {
        switch self {
        case .enqueue, .pause(_, paused: false): true
        default: false
        }
    }
}
