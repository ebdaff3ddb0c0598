#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A recurring job: a command enqueued on a queue at every time a cron expression names, read
/// in a time zone. Kept in the journal (``CommandQueue/schedule(_:cron:timeZone:command:priority:missedRuns:)``), so that every process's
/// ``QueueScheduler`` sees it, and each tick is enqueued once across the fleet.
///
/// ```swift
/// let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt
/// let nightly = try QueueSchedule(
///     "nightly-report", cron: "0 3 * * *", timeZone: berlin, queue: "reports",
///     command: BuildReport(), missedRuns: .catchUp(atMost: 3))
/// ```
///
/// Each tick is enqueued as a record under the key ``key(forTick:)`` (the schedule's name and the
/// tick's instant), so that schedulers running at once enqueue it once: the journal keeps one
/// record per key.
public struct QueueSchedule: Hashable, Sendable, Codable {
    /// The schedule's name, unique in the journal.
    public var name: String
    /// When it runs.
    public var cron: CronExpression
    /// The time zone the cron expression's wall-clock times are read in.
    public var timeZone: TimeZone
    /// The queue its ticks are enqueued on.
    public var queue: String
    /// The kind of command each tick runs (the key a registry decodes the payload with).
    public var kind: String
    /// The command's arguments, encoded, the same at every tick.
    public var payload: [UInt8]
    /// The priority each tick is enqueued at (``CommandQueue/defaultPriority``).
    public var priority: Int
    /// What the ticks that fell due while no scheduler ran do when one starts: the latest fires
    /// (``MissedTimerPolicy/fire``, the default), those later than a tolerance are dropped, or
    /// the latest few fire, oldest first.
    public var missedRuns: MissedTimerPolicy

    /// A schedule enqueuing the command of `kind` with `payload` on `queue` at the times `cron` names in `timeZone`.
    public init(
        _ name: String, cron: CronExpression, timeZone: TimeZone, queue: String, kind: String, payload: [UInt8] = [],
        priority: Int = CommandQueue.defaultPriority, missedRuns: MissedTimerPolicy = .fire
    ) {
        self.name = name
        self.cron = cron
        self.timeZone = timeZone
        self.queue = queue
        self.kind = kind
        self.payload = payload
        self.priority = priority
        self.missedRuns = missedRuns
    }

    /// A schedule enqueuing `command` on `queue` at the times `cron` names in `timeZone`.
    ///
    /// - Throws: ``CronExpressionError`` when `cron` is not a cron expression;
    ///   ``CommandRegistryError`` when the command cannot be encoded.
    public init<C: Journaled>(
        _ name: String, cron: String, timeZone: TimeZone, queue: String, command: C,
        priority: Int = CommandQueue.defaultPriority, missedRuns: MissedTimerPolicy = .fire
    ) throws {
        let entry = try CommandRegistry.entry(kind: C.journalKind, arguments: command, key: name)
        self.init(
            name, cron: try CronExpression(cron), timeZone: timeZone, queue: queue, kind: entry.kind,
            payload: entry.payload, priority: priority, missedRuns: missedRuns)
    }

    /// The key of the record that runs the tick at `tick`: the name and the tick's instant in
    /// UTC, `nightly-report@2026-03-29T01:00:00Z`.
    public func key(forTick tick: Date) -> String {
        let seconds = Int64(clamping: tick.timeIntervalSince1970.rounded(.down), default: 0)
        let wall = CronWallTime(secondsSince1970: seconds)
        let (year, month, day) = wall.date
        let (hour, minute) = wall.minute.quotientAndRemainder(dividingBy: 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(name)@\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):00Z"
    }

    /// The entry a tick at `tick` enqueues.
    func entry(forTick tick: Date) -> CommandJournalEntry {
        CommandJournalEntry(idempotencyKey: key(forTick: tick), kind: kind, payload: payload)
    }
}
