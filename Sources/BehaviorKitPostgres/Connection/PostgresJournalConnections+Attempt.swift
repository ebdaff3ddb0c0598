import BehaviorKitSync
import Logging
import PostgresNIO

/// How one attempt of a request on a pooled connection failed.
enum ConnectionAttemptFailure: Error {
    /// No connection was leased (try again, or not), or `body` failed on its own.
    case failed(AttemptFailure)
    /// The connection was lost while `body` ran, or it stopped answering (then it was closed and
    /// `body` left behind); the reason says how.
    case lost(String)
    /// The deadline passed while `body` ran: its connection was closed and `body` left behind.
    case abandoned
}

extension PostgresJournalConnections {
    private enum Phase {
        case leasing
        case running(PostgresConnection, since: ContinuousClock.Instant)
        case over
    }

    private enum Outcome<T: Sendable>: Sendable {
        case value(T)
        case failed(any Error, leased: Bool)
        case connectFailed(String)
        case deadline(leased: Bool)
        case stalled(String)
    }

    /// Leases a connection of the current pool and runs `body` on it, answering by `deadline`
    /// whatever happens: when the pool logs a failed connection attempt while the request
    /// waits, at once (and the pool is replaced, so that the next attempt connects afresh);
    /// when the deadline passes while `body` runs, or its connection closed and it still has no
    /// answer, or it waited ``PostgresCommandJournal/Reconnection/requestTimeout`` for one, its
    /// connection is closed (which fails its query, when postgres-nio has not lost it) and
    /// `body` is left behind, after `onAbandon`. `body` never starts after the attempt answered.
    func attempt<T: Sendable>(
        until deadline: ContinuousClock.Instant, failFast: Bool = false,
        onAbandon: @escaping @Sendable () -> Void = {},
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(ConnectionAttemptFailure) -> T {
        let pool = pools.checkOut()
        defer { pools.checkIn(pool) }
        let started = ContinuousClock.now
        let phase = LockedValue(Phase.leasing)
        /// Ends the wait for a lease; false when the lease came first.
        @Sendable func stopLeasing() -> Bool {
            phase.withLock { phase in
                guard case .leasing = phase else { return false }
                phase = .over
                return true
            }
        }
        /// The caller gave up while `body` ran: `body` finishes on its connection, which goes
        /// back to the pool out of any transaction `body` left open.
        let abandoned = LockedValue(false)
        let answer = FirstAnswer<Outcome<T>>()
        let followsCancellation = !Self.ignoresCancellation
        let outcome: Outcome<T>
        do {
            outcome = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    answer.set(continuation)
                    let worker = Task {
                        do {
                            let value = try await pool.client.withConnection { connection in
                                let runs = phase.withLock { phase in
                                    guard case .leasing = phase else { return false }
                                    phase = .running(connection, since: .now)
                                    return true
                                }
                                guard runs else { throw CancellationError() }
                                do {
                                    let value = try await body(connection)
                                    await Self.endAbandoned(connection, abandoned, logger: self.logger)
                                    return value
                                } catch {
                                    await Self.endAbandoned(connection, abandoned, logger: self.logger)
                                    throw error
                                }
                            }
                            phase.withLock { $0 = .over }
                            answer.answer(.success(.value(value)))
                        } catch {
                            let leased = phase.withLock { phase in
                                defer { phase = .over }
                                if case .running = phase { return true } else { return false }
                            }
                            answer.answer(.success(.failed(error, leased: leased)))
                        }
                    }
                    let token = pool.failures.observe(since: started) { failure in
                        guard stopLeasing() else { return }
                        answer.answer(.success(.connectFailed(failure.description)))
                        worker.cancel()
                    }
                    let watch = self.watchdog.watch(until: deadline, Self.look(at: phase, self.reconnection)) {
                        stalled in
                        if stopLeasing() {
                            answer.answer(.success(.deadline(leased: false)))
                            worker.cancel()
                        } else if case .running(let connection, _) = phase.withLock({ $0 }),
                            answer.answer(.success(stalled.map { .stalled($0) } ?? .deadline(leased: true)))
                        {
                            onAbandon()
                            worker.cancel()
                            self.logger.warning(
                                "a request got no answer; its connection is closed",
                                metadata: ["reason": "\(stalled ?? "the deadline passed")"])
                            Task { try? await connection.close() }
                        }
                    }
                    answer.onAnswer {
                        self.watchdog.stop(watch)
                        pool.failures.stopObserving(token)
                    }
                    answer.onCancel {
                        self.watchdog.stop(watch)
                        if stopLeasing() {
                            worker.cancel()
                            return
                        }
                        // The caller gave up while `body` ran (a lease's watchdog, a task
                        // cancelled): `body` is left to finish, and its connection goes back to
                        // the pool then. Closing it instead would make every cancelled request
                        // cost a new connection, and under load a burst of cancellations would
                        // spend the server on connecting rather than on work. Only a connection
                        // that stalls is closed.
                        guard case .running(let connection, _) = phase.withLock({ $0 }) else { return }
                        abandoned.withLock { $0 = true }
                        onAbandon()
                        worker.cancel()
                        _ = self.watchdog.watch(
                            until: .now.advanced(by: self.reconnection.requestTimeout),
                            Self.look(at: phase, self.reconnection)
                        ) { stalled in
                            guard case .running = phase.withLock({ $0 }) else { return }
                            self.logger.warning(
                                "a request given up on got no answer; its connection is closed",
                                metadata: ["reason": "\(stalled ?? "no answer within the request timeout")"])
                            Task { try? await connection.close() }
                        }
                    }
                }
            } onCancel: {
                if followsCancellation { answer.cancel() }
            }
        } catch {
            throw .failed(.final(names.error(.ioFailed, "cancelled")))
        }
        return try result(of: outcome, pool: pool, since: started, failFast: failFast)
    }

    /// Ends the transaction an abandoned `body` may have left open on `connection` (a
    /// `ROLLBACK` outside one only warns), so that the pool lends it out clean.
    private static func endAbandoned(
        _ connection: PostgresConnection, _ abandoned: LockedValue<Bool>, logger: Logger
    ) async {
        guard abandoned.withLock({ $0 }) else { return }
        await connection.rollBack(logger: logger)
    }

    /// How the watchdog (``RequestWatchdog``) looks at a request in `phase`: over once it is;
    /// stalled when the connection it runs on closed 0.25 s ago and it still has no answer, or it
    /// has waited the request timeout.
    private static func look(
        at phase: LockedValue<Phase>, _ reconnection: PostgresCommandJournal.Reconnection
    ) -> @Sendable (ContinuousClock.Instant) -> RequestWatchdog.Verdict {
        let closedAt = LockedValue<ContinuousClock.Instant?>(nil)
        return { now in
            switch phase.withLock({ $0 }) {
            case .over: return .over
            case .leasing: return .waiting
            case .running(let connection, let since):
                if connection.isClosed {
                    let closed = closedAt.withLock { closedAt in
                        if closedAt == nil { closedAt = now }
                        return closedAt ?? now
                    }
                    if closed.duration(to: now) >= .milliseconds(250) {
                        return .stalled("the connection closed and its request was never answered")
                    }
                }
                if since.duration(to: now) >= reconnection.requestTimeout {
                    return .stalled("no answer within \(PostgresJournalNames.seconds(reconnection.requestTimeout))")
                }
                return .waiting
            }
        }
    }

    private func result<T: Sendable>(
        of outcome: Outcome<T>, pool: PostgresJournalPools.Pool, since started: ContinuousClock.Instant,
        failFast: Bool
    ) throws(ConnectionAttemptFailure) -> T {
        switch outcome {
        case .value(let value):
            return value
        case .connectFailed(let logged):
            let error = names.connectError(logged)
            guard !failFast, PostgresJournalNames.isTransient(connectFailure: logged) else {
                throw .failed(.final(error))
            }
            pools.replace(pool)
            throw .failed(.retry(error.reason))
        case .failed(let error, leased: true):
            let mapped = names.error(error)
            guard PostgresJournalNames.isConnectionLoss(error) else { throw .failed(.final(mapped)) }
            throw .lost(mapped.reason)
        case .failed(let error, leased: false):
            if isClosed {
                throw .failed(.final(names.error(.closed, "close() was called; open a new journal to go on")))
            }
            let logged = pool.failures.failure(since: pool.started).map { names.connectError($0.description).reason }
            if failFast { throw .failed(.final(names.error(.cannotConnect, logged ?? names.error(error).reason))) }
            pools.replace(pool)
            throw .failed(.retry(logged ?? names.error(error).reason))
        case .deadline(leased: false):
            if let failure = pool.failures.failure(since: started) {
                throw .failed(.retry(names.connectError(failure.description).reason))
            }
            throw .failed(
                .outOfTime("no connection was made in time (the server did not answer, or every connection was busy)"))
        case .deadline(leased: true):
            throw .abandoned
        case .stalled(let reason):
            throw .lost(reason)
        }
    }
}
