public import Commands

extension JournalOperations {
    /// Sets `queue`'s rate limit of `scope` (`nil`: removes it), and prints what it did.
    public static func setRateLimit(
        _ journal: any CommandJournalManagement, queue: String, scope: QueueRateLimitScope, limit: QueueRateLimit?,
        format: Format, console: Console
    ) async throws {
        try await journal.setRateLimit(limit, queue: queue, scope: scope)
        let limits = try await journal.rateLimits()
        switch format {
        case .json:
            struct Changed: Encodable {
                let queue: String
                let scope: String
                let limit: RateLimit?
                let rateLimits: [RateLimit]
            }
            console.print(
                try json(
                    Changed(
                        queue: queue, scope: scope.rawValue, limit: limit.map { RateLimit(queue, scope, $0) },
                        rateLimits: limits.map(RateLimit.init))))
        case .text:
            let what = scope == .queue ? "queue '\(queue)'" : "each partition of queue '\(queue)'"
            console.print(
                limit.map { "limited \(what) to \(text($0))" }
                    ?? "removed the rate limit of \(what): its workers start as fast as they claim")
        }
    }

    /// Prints the journal's rate limits: queue, scope, starts per interval and burst.
    public static func rateLimits(
        _ journal: any CommandJournalManagement, format: Format, console: Console
    ) async throws {
        let limits = try await journal.rateLimits()
        switch format {
        case .json:
            console.print(try json(limits.map(RateLimit.init)))
        case .text:
            for kept in limits {
                console.print(
                    "\(kept.queue)  \(kept.scope == .queue ? "queue" : "each partition")  \(text(kept.limit))")
            }
            console.print(limits.count == 1 ? "1 rate limit" : "\(limits.count) rate limits")
        }
    }

    /// `limit` as the commands print it: `10 starts per 1000 ms, burst 5`.
    static func text(_ limit: QueueRateLimit) -> String {
        "\(limit.starts) \(limit.starts == 1 ? "start" : "starts") per \(limit.intervalMilliseconds) ms"
            + (limit.burst > 0 ? ", burst \(limit.burst)" : "")
    }

    /// A rate limit as JSON prints it.
    struct RateLimit: Encodable {
        let queue: String
        let scope: String
        let starts: Int
        let intervalMilliseconds: Int64
        let burst: Int

        init(_ queue: String, _ scope: QueueRateLimitScope, _ limit: QueueRateLimit) {
            self.queue = queue
            self.scope = scope.rawValue
            starts = limit.starts
            intervalMilliseconds = limit.intervalMilliseconds
            burst = limit.burst
        }

        init(_ kept: CommandJournalRateLimit) { self.init(kept.queue, kept.scope, kept.limit) }
    }

    /// An interval written as a whole number and a unit, `ms`, `s`, `m`, `h` or `d` (`500ms`,
    /// `1s`, `15m`), or `nil` when `text` is none or too long to be kept.
    public static func interval(_ text: String) -> Duration? {
        let units: [(suffix: String, milliseconds: Int64)] = [
            ("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
        ]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let count = Int64(text.dropLast(unit.suffix.count)) else { continue }
            let (milliseconds, overflow) = count.multipliedReportingOverflow(by: unit.milliseconds)
            return overflow ? nil : .milliseconds(milliseconds)
        }
        return nil
    }
}
