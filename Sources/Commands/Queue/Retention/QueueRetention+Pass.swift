#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension QueueRetention {
    /// The kind of the schedule that keeps the passes of a queue's retention: a
    /// ``QueueScheduler`` enqueues nothing for it.
    public static let kind = "behaviorkit.retention"

    /// The name of the schedule that keeps the passes of `queue`'s retention.
    public static func scheduleName(of queue: String) -> String { "\(kind).\(queue)" }

    /// Runs a pass of `queue`'s retention on `journal` when one is due at `now` and no other
    /// worker ran it first; answers how many records it deleted, or `nil` when no pass was due
    /// or another worker had it.
    ///
    /// Which worker runs a pass is decided by the journal's schedules' compare and set
    /// (``CommandJournalManagement/advanceSchedule(named:revision:from:to:)``) on the schedule
    /// ``scheduleName(of:)``, which keeps the time of the last pass: of the workers that find a
    /// pass due, one moves it on, the others find it moved. The schedule is saved by the first
    /// call, and again when the retention changed; the first pass is due an ``interval`` after
    /// that save.
    ///
    /// - Throws: the journal's error.
    @discardableResult
    public func prune(_ queue: String, on journal: any CommandJournalManagement, now: Date) async throws -> Int? {
        let wanted = try schedule(of: queue)
        var kept = try await journal.schedules().first { $0.schedule.name == wanted.name }
        if kept?.schedule != wanted { kept = try await journal.saveSchedule(wanted) }
        guard let kept else { return nil }
        // A save starts the count afresh: so two workers that both saved it, one after the
        // other, never both find a pass due at once.
        if now < (kept.lastTick ?? kept.savedAt).adding(interval) { return nil }
        guard
            try await journal.advanceSchedule(
                named: wanted.name, revision: kept.revision, from: kept.lastTick, to: now)
        else { return nil }
        var deleted = 0
        if let succeeded {
            deleted += try await journal.prune(
                settledBefore: now.adding(.zero - succeeded), statuses: [.done], queue: queue, limit: limit)
        }
        if let failed {
            deleted += try await journal.prune(
                settledBefore: now.adding(.zero - failed), statuses: [.failed, .compensated], queue: queue,
                limit: limit)
        }
        return deleted
    }

    /// The schedule that keeps the passes of `queue`'s retention: this retention as its payload,
    /// every minute in its listing (the passes follow ``interval``).
    func schedule(of queue: String) throws -> QueueSchedule {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return QueueSchedule(
            Self.scheduleName(of: queue), cron: try CronExpression("* * * * *"),
            timeZone: TimeZone(secondsFromGMT: 0) ?? .current, queue: queue, kind: Self.kind,
            payload: Array(try encoder.encode(self)))
    }
}
