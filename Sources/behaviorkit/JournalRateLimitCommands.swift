import ArgumentParser
import Commands
import Scenarios

struct JournalRateLimitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate-limit",
        abstract: "Shows, sets or removes the rate limits of queues: at most N starts per interval, fleet-wide.",
        discussion: """
            A rate limit is a token bucket kept in the journal: every worker of every process claims no more than \
            it allows, counted on the journal's clock. The records it holds back stay queued.
            """,
        subcommands: [
            JournalRateLimitShowCommand.self, JournalRateLimitSetCommand.self, JournalRateLimitRemoveCommand.self,
        ],
        defaultSubcommand: JournalRateLimitShowCommand.self
    )
}

/// `--per-partition`: the limit of each partition rather than the queue's.
struct JournalRateLimitScopeOptions: ParsableArguments {
    @Flag(help: "The limit of each partition of the queue (a bucket per partition), not of the whole queue.")
    var perPartition = false

    var scope: QueueRateLimitScope { perPartition ? .partition : .queue }
}

struct JournalRateLimitShowCommand: JournalReportCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Lists the rate limits: queue, scope, starts per interval, burst (the default).")

    static let report: JournalReport = JournalOperations.rateLimits
    @OptionGroup var journal: JournalLocationOptions
}

struct JournalRateLimitSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Limits a queue (or each of its partitions) to --starts per --per, with an optional --burst.",
        discussion: """
            The starts are spaced evenly, one every interval / starts; after a quiet spell up to --burst more \
            start at once. Any window of the interval holds at most starts + burst. Takes effect at every \
            worker's next claim; a changed limit starts with a full bucket.
            """
    )

    @OptionGroup var target: JournalQueueOptions
    @Option(help: "The most starts per interval (1 to 1,000,000).") var starts: Int
    @Option(help: "The interval: a whole number and ms, s, m, h or d (500ms, 1s, 15m).") var per: String
    @Option(help: "How many more may start at once after a quiet spell (0 to 1,000,000).") var burst = 0
    @OptionGroup var scope: JournalRateLimitScopeOptions
    @OptionGroup var confirmation: JournalConfirmation

    func validate() throws { _ = try limit() }

    /// The limit the options give.
    ///
    /// - Throws: a `ValidationError` naming the option that is wrong.
    func limit() throws -> QueueRateLimit {
        guard let interval = JournalOperations.interval(per) else {
            throw ValidationError("--per \(per) is no interval: write a whole number and ms, s, m, h or d (1s)")
        }
        do {
            return try QueueRateLimit(starts: starts, per: interval, burst: burst)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let limit = try limit()
        let queue = target.queue
        try await target.journal.print(confirming: "Limit queue '\(queue)' to \(limit)", by: confirmation) {
            try await JournalOperations.setRateLimit(
                $0, queue: queue, scope: scope.scope, limit: limit, format: $1, console: $2)
        }
    }
}

struct JournalRateLimitRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Removes a queue's rate limit (or its partitions'): its workers start as fast as they claim.")

    @OptionGroup var target: JournalQueueOptions
    @OptionGroup var scope: JournalRateLimitScopeOptions

    func run() async throws {
        let queue = target.queue
        try await target.journal.print {
            try await JournalOperations.setRateLimit(
                $0, queue: queue, scope: scope.scope, limit: nil, format: $1, console: $2)
        }
    }
}
