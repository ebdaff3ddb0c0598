import BehaviorKitSync

extension DurableMachine {
    /// Waits until the instance `key` has `state` active (in a statechart, any active state of
    /// its configuration, a compound one included) and answers the instance then; `nil` when
    /// `timeout` passed first on `clock`. A key not started yet is waited for too.
    ///
    /// ```swift
    /// try await orders.send(.pay, to: "order-42", id: request.id)
    /// guard let order = try await orders.wait(for: "order-42", state: .shipped, timeout: .seconds(30)) else {
    ///     return .accepted  // still on its way
    /// }
    /// ```
    ///
    /// Woken at once by a step this machine commits in this process (an event, a timer, an
    /// effect's event); a step committed by another process is seen at the next look, every
    /// `pollInterval`.
    ///
    /// - Throws: `InvalidKeyError` for a key no store can keep; the store's errors;
    ///   ``DurableMachineError/unreadableSnapshot(_:_:)`` for an instance the definition cannot
    ///   read; `CancellationError` when the caller is cancelled.
    public func wait(
        for key: String, state: State, timeout: Duration, pollInterval: Duration = .milliseconds(100),
        clock: some Clock<Duration> = ContinuousClock()
    ) async throws -> DurableInstance<State, Context>? {
        let machineKey = try machineKey(key)
        let clock = ElapsedClock(clock)
        let poll = max(pollInterval, .milliseconds(1))
        while true {
            let seen = commits.generation
            if let record = try await store.instance(machineKey) {
                let instance = try instance(from: record)
                if instance.configuration.contains(state) { return instance }
            }
            let remaining = timeout - clock.now
            if remaining <= .zero { return nil }
            try Task.checkCancellation()
            await commits.wait(after: seen, upTo: min(remaining, poll), on: clock)
        }
    }
}
