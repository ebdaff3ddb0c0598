#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A ``QueueSchedule`` as the journal keeps it: with the revision and time of its last save,
/// and the last tick a scheduler enqueued.
public struct CommandJournalSchedule: Hashable, Sendable {
    /// The schedule.
    public var schedule: QueueSchedule
    /// How many times it was saved under its name: 1 when added, one more at each change.
    public var revision: Int64
    /// When it was last saved, by the journal's clock: its ticks count from then.
    public var savedAt: Date
    /// The last tick enqueued since it was saved, or `nil`: the schedulers go on from there.
    public var lastTick: Date?

    /// A kept schedule.
    public init(schedule: QueueSchedule, revision: Int64, savedAt: Date, lastTick: Date?) {
        self.schedule = schedule
        self.revision = revision
        self.savedAt = savedAt
        self.lastTick = lastTick
    }

    /// The next tick the schedulers will enqueue: the first the cron expression names after
    /// the last tick (or the save); `nil` when it names none in the next ten years.
    public var nextTick: Date? {
        schedule.cron.next(after: lastTick ?? savedAt, in: schedule.timeZone)
    }

    /// The schedule's definition as the stores keep it (JSON), once its name and queue passed
    /// `StoredKey`'s rule.
    ///
    /// - Throws: `InvalidKeyError` for a name or queue a store cannot keep exactly.
    package static func encode(_ schedule: QueueSchedule) throws -> [UInt8] {
        try StoredKey.check(schedule.name, "schedule name")
        try StoredKey.check(schedule.queue, "queue name")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Array(try encoder.encode(schedule))
    }

    /// The schedule a store kept as `definition` (``encode(_:)``).
    package static func decode(_ definition: [UInt8]) throws -> QueueSchedule {
        try JSONDecoder().decode(QueueSchedule.self, from: Data(definition))
    }
}
