#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What one queue did in one minute: the records it settled done and failed, the attempts that
/// failed and were retried, and how long its records waited to be picked up — what an
/// operator's chart shows first (``CommandJournalManagement/activity(since:)``).
///
/// ```swift
/// for minute in try await journal.activity(since: Date().addingTimeInterval(-3_600)) where minute.queue == "emails" {
///     print(minute.minute, minute.done, minute.failed, minute.retried, minute.meanPickup ?? .zero)
/// }
/// ```
///
/// A record's pickup is the time from when it fell due (its enqueue, or the end of its delay or
/// its retry's backoff) to the claim that took it from the queue; a record taken over from a
/// stopped worker keeps the pickup of the claim that first took it from the queue, not the
/// takeover's. The minute of a pickup is the minute its record settled.
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
    /// The records settled in the minute whose pickup the journal kept (those claimed from the
    /// queue since the journal kept pickups).
    public var pickups: Int
    /// Their pickups added up, in milliseconds.
    public var pickupMilliseconds: Int64
    /// The longest of their pickups, in milliseconds.
    public var longestPickupMilliseconds: Int64

    /// The activity of `queue` in the minute starting at `minute`.
    public init(
        queue: String, minute: Date, done: Int = 0, failed: Int = 0, retried: Int = 0, pickups: Int = 0,
        pickupMilliseconds: Int64 = 0, longestPickupMilliseconds: Int64 = 0
    ) {
        self.queue = queue
        self.minute = minute
        self.done = done
        self.failed = failed
        self.retried = retried
        self.pickups = pickups
        self.pickupMilliseconds = pickupMilliseconds
        self.longestPickupMilliseconds = longestPickupMilliseconds
    }

    /// The mean pickup of the minute's records, or `nil` when none was kept.
    public var meanPickup: Duration? {
        pickups > 0 ? .milliseconds(Double(pickupMilliseconds) / Double(pickups)) : nil
    }

    /// The longest pickup of the minute's records, or `nil` when none was kept.
    public var longestPickup: Duration? {
        pickups > 0 ? .milliseconds(longestPickupMilliseconds) : nil
    }

    /// `milliseconds` as a person reads a wait: `0.4 ms`, `12 ms`, `3.2 s`, `4.5 min` (the console's
    /// charts and `behaviorkit journal activity`).
    package static func describe(milliseconds: Double) -> String {
        // One decimal, from whole tenths (at most a year's worth of minutes: no overflow).
        func tenths(_ value: Double) -> String {
            let whole = Int64((min(max(value.isFinite ? value : 0, 0), 1e12) * 10).rounded())
            return "\(whole / 10).\(whole % 10)"
        }
        switch milliseconds {
        case ..<10: return tenths(milliseconds) + " ms"
        case ..<1_000: return "\(Int64(milliseconds.rounded())) ms"
        case ..<60_000: return tenths(milliseconds / 1_000) + " s"
        default: return tenths(milliseconds / 60_000) + " min"
        }
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
            bucket.pickups += count.pickups
            bucket.pickupMilliseconds =
                bucket.pickupMilliseconds.addingReportingOverflow(count.pickupMilliseconds)
                .partialValue
            bucket.longestPickupMilliseconds = max(bucket.longestPickupMilliseconds, count.longestPickupMilliseconds)
            byBucket[count.queue, default: [:]][count.minute] = bucket
        }
        return byBucket.keys.sorted().flatMap { queue in
            (byBucket[queue] ?? [:]).values.sorted { $0.minute < $1.minute }
        }
    }
}
