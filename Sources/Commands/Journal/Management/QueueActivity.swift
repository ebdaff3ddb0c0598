#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What one queue did in one minute: the records it settled done and failed, and the attempts
/// that failed and were retried — what an operator's chart shows first
/// (``CommandJournalManagement/activity(since:)``).
///
/// ```swift
/// for minute in try await journal.activity(since: Date().addingTimeInterval(-3_600)) where minute.queue == "emails" {
///     print(minute.minute, minute.done, minute.failed, minute.retried)
/// }
/// ```
public struct QueueActivity: Sendable, Hashable, Codable {
    /// The queue's name.
    public var queue: String
    /// The minute's start (UTC, a whole minute since 1970).
    public var minute: Date
    /// Root records of the queue settled done in the minute.
    public var done: Int
    /// Root records of the queue settled failed or compensated in the minute (a cancelled one too).
    public var failed: Int
    /// Attempts of the queue's records that failed in the minute and were retried (each is in
    /// its record's ``CommandJournalRecordDetails/attempts``).
    public var retried: Int

    /// The activity of `queue` in the minute starting at `minute`.
    public init(queue: String, minute: Date, done: Int = 0, failed: Int = 0, retried: Int = 0) {
        self.queue = queue
        self.minute = minute
        self.done = done
        self.failed = failed
        self.retried = retried
    }

    /// The start of the minute `date` falls in.
    public static func minute(of date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.down) * 60)
    }

    /// `counts` gathered into one value per queue and minute, ordered by queue, then minute.
    package static func gathered(_ counts: [QueueActivity]) -> [QueueActivity] {
        var byBucket: [String: [Date: QueueActivity]] = [:]
        for count in counts {
            var bucket =
                byBucket[count.queue, default: [:]][count.minute]
                ?? QueueActivity(
                    queue: count.queue, minute: count.minute)
            bucket.done += count.done
            bucket.failed += count.failed
            bucket.retried += count.retried
            byBucket[count.queue, default: [:]][count.minute] = bucket
        }
        return byBucket.keys.sorted().flatMap { queue in
            (byBucket[queue] ?? [:]).values.sorted { $0.minute < $1.minute }
        }
    }
}
