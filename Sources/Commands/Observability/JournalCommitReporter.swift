package import Logging
import Metrics

/// What a journal's group commit reports: the time and size of each batch (when a metrics
/// backend is bootstrapped) and the commits that fail (to its logger). The SQLite and
/// PostgreSQL journals share it.
///
/// Without a backend and a logger it holds nothing, and a batch costs one `Bool` test.
package final class JournalCommitReporter: Sendable {
    /// The metric labels of journal commits (see the Observability article).
    package enum Metric {
        package static let duration = "behaviorkit_journal_commit_duration_seconds"
        package static let batchSize = "behaviorkit_journal_commit_batch_size"
        package static let errors = "behaviorkit_journal_commit_errors"
    }

    /// The journal's logger.
    package let logger: Logger?
    /// Whether there is a metrics backend: then commits are timed.
    package let isMeasuring: Bool
    private let duration: Metrics.Timer?
    private let batchSize: Recorder?
    private let errors: Counter?

    /// A reporter for a journal of kind `journal` (`sqlite`, `postgres`), on the metrics factory
    /// current now.
    package init(journal: String, logger: Logger?) {
        self.logger = logger
        let metrics = MetricCache.make()
        let dimensions = [("journal", journal)]
        self.duration = metrics?.timer(Metric.duration, dimensions)
        self.batchSize = metrics?.recorder(Metric.batchSize, dimensions)
        self.errors = metrics?.counter(Metric.errors, dimensions)
        self.isMeasuring = metrics != nil
    }

    /// Reports a batch of `count` writes committed in `elapsed`.
    package func committed(_ count: Int, in elapsed: Duration) {
        duration?.record(duration: elapsed)
        batchSize?.record(count)
    }

    /// Reports a batch of `count` writes that failed with `error` (each caller gets the error).
    package func failed(_ count: Int, in elapsed: Duration?, _ error: any Error) {
        if let elapsed { duration?.record(duration: elapsed) }
        batchSize?.record(count)
        errors?.increment()
        logger?.error("journal commit failed", metadata: ["writes": "\(count)", "error": "\(error)"])
    }
}
