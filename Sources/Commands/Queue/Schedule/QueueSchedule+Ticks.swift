#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which of a schedule's ticks a scheduler enqueues: those that fell due since the last tick
/// (or the save), as its ``QueueSchedule/missedRuns`` policy says.
extension CommandJournalSchedule {
    /// The most ticks one pass looks at, and the most a policy enqueues at once.
    static let tickLimit = 100_000
    static let enqueueLimit = 1_000

    /// The ticks to enqueue now, oldest first, and the latest tick due (which becomes the last
    /// tick, whether it was enqueued or dropped); no tick when none fell due.
    func dueTicks(now: Date) -> (enqueue: [Date], latest: Date?) {
        let keep =
            switch schedule.missedRuns {
            case .fire: 1
            case .catchUp(let most): min(max(1, most), Self.enqueueLimit)
            case .skip: Self.enqueueLimit
            }
        var ticks: [Date] = []
        var latest: Date?
        var cursor = lastTick ?? savedAt
        var looked = 0
        while looked < Self.tickLimit, let tick = schedule.cron.next(after: cursor, in: schedule.timeZone), tick <= now
        {
            ticks.append(tick)
            if ticks.count > keep { ticks.removeFirst() }
            latest = tick
            cursor = tick
            looked += 1
        }
        if case .skip(let lateBy) = schedule.missedRuns {
            ticks = ticks.filter { $0.adding(lateBy) >= now }
        }
        return (ticks, latest)
    }
}
