import BehaviorKitSync
import Logging
import PostgresNIO

/// The pool's failed connection attempts, read from its log: postgres-nio's pool retries a
/// failing connection and only logs why, so the journal listens to that log to learn at once
/// that (and why) a waiting request gets no connection.
final class ConnectFailureLog: Sendable {
    struct Failure: Sendable {
        /// When it was logged, on the continuous clock.
        var at: ContinuousClock.Instant
        /// The error, as the pool describes it (`String(reflecting: PSQLError)`).
        var description: String
    }

    private struct State {
        var last: Failure?
        var observers: [UInt64: @Sendable (Failure) -> Void] = [:]
        var nextObserver: UInt64 = 0
    }

    private let state = LockedValue(State())

    /// The last failure logged at or after `instant`.
    func failure(since instant: ContinuousClock.Instant) -> Failure? {
        state.withLock { state in state.last.flatMap { $0.at >= instant ? $0 : nil } }
    }

    /// Calls `action` with the first failure logged at or after `instant` (at once when there
    /// is one already), until ``stopObserving(_:)``; returns the token to stop with.
    func observe(since instant: ContinuousClock.Instant, _ action: @escaping @Sendable (Failure) -> Void) -> UInt64 {
        let (token, now) = state.withLock { state -> (UInt64, Failure?) in
            state.nextObserver += 1
            if let last = state.last, last.at >= instant { return (state.nextObserver, last) }
            state.observers[state.nextObserver] = action
            return (state.nextObserver, nil)
        }
        if let now { action(now) }
        return token
    }

    func stopObserving(_ token: UInt64) {
        _ = state.withLock { $0.observers.removeValue(forKey: token) }
    }

    func record(_ description: String) {
        let failure = Failure(at: .now, description: description)
        let observers = state.withLock { state in
            state.last = failure
            defer { state.observers = [:] }
            return Array(state.observers.values)
        }
        observers.forEach { $0(failure) }
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
