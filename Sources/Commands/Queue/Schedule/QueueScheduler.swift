public import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Enqueues the ticks of the journal's schedules as they fall due: run one in every worker
/// process (or a few), and each tick is enqueued once across the fleet, under the key
/// ``QueueSchedule/key(forTick:)``; the journal's one record per key does the rest.
///
/// ```swift
/// let scheduler = QueueScheduler(journal: journal)
/// try await scheduler.run()  // until the task is cancelled
/// ```
///
/// Each pass reads the schedules (so that one added, changed or removed by any process
/// counts at the next pass), enqueues the ticks due since each schedule's last tick as its
/// ``QueueSchedule/missedRuns`` policy says, and moves the last tick on (compare and set:
/// ``CommandJournalManagement/advanceSchedule(named:revision:from:to:)``). A scheduler that starts
/// after a night without one applies the policy to the ticks missed.
///
/// A tick's record is what keeps it from running twice: two schedulers that find the same tick
/// due enqueue one record. A scheduler that read a schedule before another moved its last tick
/// on enqueues that tick again only when its record was pruned in between, so prune settled
/// records older than a pass takes (``CommandJournalManagement/prune(settledBefore:)``), not newer.
public struct QueueScheduler: Sendable {
    /// The journal whose schedules it runs.
    public let journal: any CommandJournalManagement
    /// The longest ``run()`` sleeps between passes: how soon it notices a schedule added or
    /// changed by another process.
    public let poll: Duration
    let wallClock: any WallClock
    let sleeper: @Sendable (Duration) async throws -> Void
    let logger: Logger

    /// A scheduler of `journal`'s schedules, telling the time by `wallClock` (the journal's,
    /// for a journal in this process) and sleeping on `clock` (a test's `ManualClock` is both).
    public init<C: Clock<Duration>>(
        journal: any CommandJournalManagement, wallClock: any WallClock = SystemWallClock(),
        clock: C = ContinuousClock(),
        poll: Duration = .seconds(1), logger: Logger = Logger(label: "behaviorkit.scheduler")
    ) {
        self.journal = journal
        self.wallClock = wallClock
        self.poll = max(poll, .milliseconds(1))
        self.sleeper = { duration in try await clock.sleep(for: duration) }
        self.logger = logger
    }

    /// One pass: enqueues every tick due now; returns the records of the ticks (a tick another
    /// scheduler enqueued first answers its existing record).
    ///
    /// - Throws: the first error of a schedule, once every schedule had its turn.
    @discardableResult
    public func runDue() async throws -> [CommandJournalRecord] {
        try await pass().records
    }

    /// Passes until the task is cancelled, sleeping until the next tick of any schedule or for
    /// ``poll``, whichever comes first. An error of a pass is logged, and the next pass tries again.
    public func run() async throws {
        while !Task.isCancelled {
            var wait = poll
            do {
                let (_, next) = try await pass()
                if let next { wait = min(wait, max(.milliseconds(1), wallClock.currentDate.duration(to: next))) }
            } catch is CancellationError {
                return
            } catch {
                logger.warning("a pass of the schedules failed", metadata: ["error": "\(error)"])
            }
            do { try await sleeper(wait) } catch { return }
        }
    }

    func pass() async throws -> (records: [CommandJournalRecord], nextTick: Date?) {
        let now = wallClock.currentDate
        var records: [CommandJournalRecord] = []
        var nextTick: Date?
        var firstError: (any Error)?
        // A queue's retention keeps its passes in a schedule of its own: nothing to enqueue.
        for kept in try await journal.schedules() where kept.schedule.kind != QueueRetention.kind {
            do {
                let (enqueued, last) = try await fire(kept, now: now)
                records += enqueued
                let following = kept.schedule.cron.next(after: max(last ?? now, now), in: kept.schedule.timeZone)
                if let following, nextTick.map({ following < $0 }) ?? true { nextTick = following }
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
        return (records, nextTick)
    }

    private func fire(
        _ kept: CommandJournalSchedule, now: Date
    ) async throws
        -> (records: [CommandJournalRecord], last: Date?)
    {
        let (ticks, latest) = kept.dueTicks(now: now)
        guard let latest else { return ([], kept.lastTick) }
        var records: [CommandJournalRecord] = []
        for tick in ticks {
            records.append(
                try await journal.enqueue(
                    kept.schedule.entry(forTick: tick), queue: kept.schedule.queue, after: .zero,
                    priority: kept.schedule.priority, traceContext: nil))
        }
        _ = try await journal.advanceSchedule(
            named: kept.schedule.name, revision: kept.revision, from: kept.lastTick, to: latest)
        return (records, latest)
    }
}
