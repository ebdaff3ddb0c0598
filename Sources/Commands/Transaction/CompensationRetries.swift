import BehaviorKitSync

extension CompensationPolicy {
    /// Runs `undo`, the compensation of `step` (at `index`), until it succeeds or the policy's
    /// retries are spent, waiting the backoff before each retry on the policy's clock and telling
    /// `observer` of each (``TransactionEvent/compensationRetried(index:command:attempt:error:)``).
    /// Returns the last error, or `nil` once it was undone. `check` sees every failure first and
    /// may throw to end it at once; a cancelled task or a true `stopped()` ends the retries.
    ///
    /// Both engines undo a step with it: ``Transaction`` and ``DurableTransaction``.
    func undo<Failure: Error>(
        _ step: any Command, at index: Int, observer: (@Sendable (TransactionEvent) -> Void)?,
        check: (any Error) throws(Failure) -> Void, stopped: () -> Bool, _ undo: () async throws -> Void
    ) async throws(Failure) -> (any Error)? {
        try await self.undo(
            check: check, stopped: stopped,
            retried: { attempt, error in
                observer?(.compensationRetried(index: index, command: step, attempt: attempt, error: error))
            }, undo)
    }

    /// Runs `undo` until it succeeds or the policy's retries are spent, as
    /// ``undo(_:at:observer:check:stopped:_:)`` does, telling `retried` of each retry (its
    /// number, from 1, and the error before it). Workflows' compensations run with it.
    func undo<Failure: Error>(
        check: (any Error) throws(Failure) -> Void, stopped: () -> Bool, retried: (Int, any Error) -> Void,
        _ undo: () async throws -> Void
    ) async throws(Failure) -> (any Error)? {
        var attempt = 0
        while true {
            do {
                try await undo()
                return nil
            } catch {
                try check(error)
                guard attempt < retries, !Task.isCancelled else { return error }
                attempt += 1
                if stopped() { return error }
                retried(attempt, error)
                let delay = backoff.delay(beforeRetry: attempt)
                if delay > .zero {
                    do { try await clock.sleep(for: delay) } catch { return error }
                }
            }
        }
    }
}
