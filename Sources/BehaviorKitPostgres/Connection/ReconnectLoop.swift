/// What one attempt of a request came to, when it did not answer.
enum AttemptFailure: Error {
    /// The server could not be reached, or the connection was lost before anything was written:
    /// try again after a wait. The reason names the cause.
    case retry(String)
    /// The attempt ran out of time with no news of the server (it started just before the
    /// deadline): the reason of an earlier attempt, when there was one, says more.
    case outOfTime(String)
    /// The request failed for good (or its outcome is unknown): tell the caller.
    case final(PostgresStoreError)
}

/// Runs a request's attempts until one answers, one fails for good, or the deadline passes,
/// waiting between them as ``ReconnectBackoff`` says, on the clock it is given.
struct ReconnectLoop<C: Clock<Duration>>: Sendable {
    let clock: C
    let policy: PostgresCommandJournal.Reconnection

    /// Runs `attempt` (given the deadline) until it answers; throws its final error, or
    /// `giveUp(reason)` of the last retried attempt once the deadline has passed, or
    /// `cancelled(reason)` when the task was cancelled while it waited to try again.
    func run<T>(
        _ attempt: (C.Instant) async throws(AttemptFailure) -> T,
        giveUp: (String) -> PostgresStoreError,
        cancelled: ((String) -> PostgresStoreError)? = nil
    ) async throws(PostgresStoreError) -> T {
        let deadline = clock.now.advanced(by: policy.deadline)
        var backoff = ReconnectBackoff(policy)
        var reason: String?
        while true {
            do throws(AttemptFailure) {
                return try await attempt(deadline)
            } catch {
                switch error {
                case .final(let error): throw error
                case .retry(let why): reason = why
                case .outOfTime(let why): reason = reason ?? why
                }
            }
            let reason = reason ?? "no attempt"
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { throw giveUp(reason) }
            do {
                let wake = clock.now.advanced(by: min(backoff.next(), left))
                try await PostgresJournalConnections.sleep(until: wake, on: clock)
            } catch {
                let why = "cancelled while waiting to try again, after \(reason)"
                throw cancelled?(why) ?? giveUp(why)
            }
        }
    }
}
