import BehaviorKitSync
import Logging
import PostgresNIO

/// The pool's failed connection attempts, read from its log: postgres-nio's pool retries a
/// failing connection forever and only logs why, so the journal listens to that log to fail a
/// waiting request at once, with the server's reason.
final class ConnectFailureLog: Sendable {
    struct Failure: Sendable {
        /// When it was logged, on the continuous clock.
        var at: ContinuousClock.Instant
        /// The error, as the pool describes it (`String(reflecting: PSQLError)`).
        var description: String
    }

    private let last = LockedValue<Failure?>(nil)

    /// The last failure logged at or after `instant`.
    func failure(since instant: ContinuousClock.Instant) -> Failure? {
        last.withLock { failure in failure.flatMap { $0.at >= instant ? $0 : nil } }
    }

    func record(_ description: String) {
        last.withLock { $0 = Failure(at: .now, description: description) }
    }

    /// A logger that records the pool's "Connection creation failed" messages here.
    var logger: Logger {
        var logger = Logger(label: "BehaviorKitPostgres.pool") { _ in Handler(log: self) }
        logger.logLevel = .info
        return logger
    }

    struct Handler: LogHandler {
        let log: ConnectFailureLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            guard event.message.description == "Connection creation failed" else { return }
            let error = event.metadata?["psql_error"] ?? event.metadata?["error"]
            log.record(error.map { "\($0)" } ?? event.message.description)
        }
    }
}
