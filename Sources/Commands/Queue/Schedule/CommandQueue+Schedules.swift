#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension CommandQueue {
    /// Adds the schedule `name`, or changes it, durably for every process: a ``QueueScheduler``
    /// enqueues `command` on this queue at each time `cron` names in `timeZone`, once across
    /// the fleet. Its ticks count from now.
    ///
    /// ```swift
    /// let newYork = TimeZone(identifier: "America/New_York") ?? .gmt
    /// try await reports.schedule("daily-summary", cron: "0 7 * * MON-FRI", timeZone: newYork, command: Summary())
    /// ```
    ///
    /// - Throws: ``CronExpressionError`` when `cron` is not a cron expression;
    ///   ``CommandJournalError/unsupported(operation:)`` on a journal that is no
    ///   ``CommandJournalManagement`` (every journal of BehaviorKit is one).
    @discardableResult
    public func schedule<C: Journaled>(
        _ name: String, cron: String, timeZone: TimeZone, command: C, priority: Int = defaultPriority,
        missedRuns: MissedTimerPolicy = .fire
    ) async throws -> CommandJournalSchedule {
        try await management("saving a schedule").saveSchedule(
            QueueSchedule(
                name, cron: cron, timeZone: timeZone, queue: self.name, command: command, priority: priority,
                missedRuns: missedRuns))
    }

    /// Removes the schedule `name`: its ticks are no longer enqueued. Answers whether there was one.
    @discardableResult
    public func unschedule(_ name: String) async throws -> Bool {
        try await management("removing a schedule").removeSchedule(named: name)
    }

    /// The schedules that enqueue on this queue, by name.
    public func schedules() async throws -> [CommandJournalSchedule] {
        try await management("listing the schedules").schedules().filter { $0.schedule.queue == name }
    }
}
