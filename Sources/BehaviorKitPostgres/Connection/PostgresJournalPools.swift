import BehaviorKitSync
import Logging
import PostgresNIO

/// The journal's connection pools: one current `PostgresClient`, replaced by a fresh one when it
/// cannot connect, so that the journal, not the pool, decides when to try again.
///
/// postgres-nio's pool retries a failed connection on a schedule of its own that grows to a
/// minute (and fails every request at once after 15 s of failures): after a long outage it
/// would come back long after the server. A fresh pool opens the one connection it keeps
/// (``withoutIdleTimers(_:)``) as it starts, and the others on demand. A replaced pool serves
/// the requests it leased until they end, then stops.
final class PostgresJournalPools: Sendable {
    /// One pool, run in a task of its own, with the log of its failed connection attempts.
    final class Pool: Sendable {
        let client: PostgresClient
        let failures: ConnectFailureLog
        let started = ContinuousClock.now
        fileprivate let runTask: Task<Void, Never>

        fileprivate init(_ configuration: PostgresClient.Configuration) {
            let failures = ConnectFailureLog()
            let client = PostgresClient(
                configuration: PostgresJournalPools.withoutIdleTimers(configuration), backgroundLogger: failures.logger)
            self.client = client
            self.failures = failures
            runTask = Task { await client.run() }
        }
    }

    /// `configuration` with no keep-alive queries and one connection kept open, unless it asks for
    /// either itself: postgres-nio's pool arms a keep-alive timer and an idle timer (a task, a
    /// task group and a continuation each) for every connection given back to it that is not one
    /// of its minimum, and cancels them when the connection is lent again: a process enqueuing
    /// 3,000 jobs one at a time used 1,113–1,404 ms of CPU with them, 866–1,028 without (a noisy
    /// machine; the README's figures). A connection that died
    /// while idle is found by the request that uses it, which runs again
    /// (``PostgresCommandJournal/Reconnection``).
    static func withoutIdleTimers(_ configuration: PostgresClient.Configuration) -> PostgresClient.Configuration {
        var configuration = configuration
        let defaults = PostgresClient.Configuration.Options()
        if let keepAlive = configuration.options.keepAliveBehavior, let usual = defaults.keepAliveBehavior,
            keepAlive.frequency == usual.frequency, keepAlive.query.sql == usual.query.sql
        {
            configuration.options.keepAliveBehavior = nil
        }
        if configuration.options.minimumConnections == 0, configuration.options.maximumConnections > 1 {
            configuration.options.minimumConnections = 1
        }
        return configuration
    }

    private struct State {
        var current: Pool
        /// The requests using each pool, by its identity.
        var users: [ObjectIdentifier: Int] = [:]
        /// Pools replaced while requests used them: stopped when the last one ends.
        var retired: [ObjectIdentifier: Pool] = [:]
        var closed = false
    }

    private let configuration: PostgresClient.Configuration
    private let state: LockedValue<State>

    init(configuration: PostgresClient.Configuration) {
        self.configuration = configuration
        state = LockedValue(State(current: Pool(configuration)))
    }

    deinit {
        state.withLock { state in
            state.current.runTask.cancel()
            state.retired.values.forEach { $0.runTask.cancel() }
        }
    }

    /// The current pool, counted as used until ``checkIn(_:)``.
    func checkOut() -> Pool {
        state.withLock { state in
            state.users[ObjectIdentifier(state.current), default: 0] += 1
            return state.current
        }
    }

    /// Ends a use of `pool`; stops it when it was replaced and this was its last use.
    func checkIn(_ pool: Pool) {
        let stop = state.withLock { state -> Pool? in
            let id = ObjectIdentifier(pool)
            let left = (state.users[id] ?? 1) - 1
            state.users[id] = left > 0 ? left : nil
            guard left <= 0 else { return nil }
            return state.retired.removeValue(forKey: id)
        }
        stop?.runTask.cancel()
    }

    /// Replaces `pool` with a fresh one, unless it was replaced already or the pools are closed.
    func replace(_ pool: Pool) {
        let stop = state.withLock { state -> Pool? in
            guard !state.closed, state.current === pool else { return nil }
            state.current = Pool(configuration)
            let id = ObjectIdentifier(pool)
            guard state.users[id] == nil else {
                state.retired[id] = pool
                return nil
            }
            return pool
        }
        stop?.runTask.cancel()
    }

    /// Stops every pool, closing their connections, and waits until they have stopped.
    func close() async {
        let pools = state.withLock { state -> [Pool] in
            state.closed = true
            defer { state.retired = [:] }
            return [state.current] + state.retired.values
        }
        for pool in pools { pool.runTask.cancel() }
        for pool in pools { await pool.runTask.value }
    }
}
