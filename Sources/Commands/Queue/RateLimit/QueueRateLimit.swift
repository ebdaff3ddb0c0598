/// At most ``starts`` starts per ``interval``, optionally with a ``burst``: a token bucket that
/// ``CommandJournalManagement/setRateLimit(_:queue:scope:)`` keeps in the journal, which every
/// claim of every process reads and debits in its own transaction, on the journal's clock
/// (PostgreSQL's server clock, SQLite's and the in-memory journal's clock).
///
/// ```swift
/// let limit = try QueueRateLimit(starts: 10, per: .seconds(1))  // one start every 100 ms
/// try await mail.setRateLimit(limit)                           // for every worker, at once
/// ```
///
/// The starts are spaced evenly, one every `interval / starts` (a generic cell rate: the bucket
/// holds `1 + burst` starts and refills one every `interval / starts`); after a quiet spell,
/// up to `burst` more may start at once. Any window of length `interval` therefore holds at
/// most `starts + burst` starts: `burst: starts - 1` lets a whole interval's starts go at once.
/// The bucket counts in whole milliseconds: an interval is rounded up to one.
public struct QueueRateLimit: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The most starts per ``interval``, beside the ``burst``.
    public let starts: Int
    /// The interval the starts are counted over.
    public let interval: Duration
    /// How many more than the even pace may start at once after a quiet spell.
    public let burst: Int

    /// The most ``starts`` (and ``burst``) a limit holds: a million.
    public static let maximumStarts = 1_000_000
    /// The longest ``interval``: 366 days.
    public static let maximumInterval = Duration.seconds(366 * 86_400)

    /// At most `starts` starts per `interval`, and `burst` more at once after a quiet spell.
    ///
    /// - Throws: ``QueueRateLimitError`` naming the problem: `starts` below 1 or above
    ///   ``maximumStarts``, `interval` not above zero or above ``maximumInterval``, `burst`
    ///   below 0 or above ``maximumStarts``.
    public init(starts: Int, per interval: Duration, burst: Int = 0) throws(QueueRateLimitError) {
        guard starts >= 1 else { throw .startsNotPositive(starts) }
        guard starts <= Self.maximumStarts else { throw .tooManyStarts(starts) }
        guard interval > .zero else { throw .intervalNotPositive(interval) }
        guard interval <= Self.maximumInterval else { throw .intervalTooLong(interval) }
        guard burst >= 0 else { throw .negativeBurst(burst) }
        guard burst <= Self.maximumStarts else { throw .burstTooLarge(burst) }
        self.starts = starts
        self.interval = interval
        self.burst = burst
    }

    /// The interval in whole milliseconds, rounded up: from 1 to 366 days' worth.
    public var intervalMilliseconds: Int64 {
        let (seconds, attoseconds) = interval.components
        let whole = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
        return attoseconds % 1_000_000_000_000_000 == 0 ? whole : whole + 1
    }

    /// The limit as a sentence: `10 starts per 1.0 seconds, burst 5`.
    public var description: String {
        "\(starts) starts per \(interval)" + (burst > 0 ? ", burst \(burst)" : "")
    }

    private enum CodingKeys: String, CodingKey {
        case starts, intervalMilliseconds, burst
    }

    /// Decodes a limit as ``encode(to:)`` wrote it, checked as ``init(starts:per:burst:)`` checks.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            starts: container.decode(Int.self, forKey: .starts),
            per: .milliseconds(container.decode(Int64.self, forKey: .intervalMilliseconds)),
            burst: container.decode(Int.self, forKey: .burst))
    }

    /// Encodes the starts, the interval in milliseconds and the burst.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(starts, forKey: .starts)
        try container.encode(intervalMilliseconds, forKey: .intervalMilliseconds)
        try container.encode(burst, forKey: .burst)
    }
}
