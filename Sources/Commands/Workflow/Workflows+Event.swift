import BehaviorKitSync

extension Workflows {
    /// The latest value the run `workflowKey` published as its event `key`
    /// (``WorkflowContext/publish(_:as:)``), waiting up to `timeout` for one; `nil` when none
    /// was published by then (the run may not have started yet): DBOS's `get_event`.
    ///
    /// ```swift
    /// _ = try await workflows.start(checkout, key: "order-42", input: order)
    /// guard let page = try await workflows.event(of: "order-42", key: "payment-page", as: String.self,
    ///                                            timeout: .seconds(10)) else { return .gatewayTimeout }
    /// ```
    ///
    /// Woken at once by a publish in this process (a worker of this `Workflows`); a publish in
    /// another process is seen at the next look, every ``pollInterval``. The timeout is on the
    /// invoker's clock.
    ///
    /// - Throws: ``WorkflowError/undecodable(key:reason:)`` when the value does not decode as
    ///   `T`; ``WorkflowError/invalidKey(key:reason:)`` for a run's key with a `"/"`; the
    ///   journal's error when it cannot read.
    public func event<T: Decodable & Sendable>(
        of workflowKey: String, key: String, as type: T.Type = T.self, timeout: Duration
    ) async throws -> T? {
        _ = try WorkflowRecord.checked(workflowKey, as: "run's key")
        let clock = invoker.keeper.clock
        let start = clock.now
        while true {
            let seen = publications.generation
            if let value = try await latestEvent(of: workflowKey, key: key, as: T.self) { return value }
            let remaining = timeout - (clock.now - start)
            if remaining <= .zero { return nil }
            try Task.checkCancellation()
            await publications.wait(after: seen, upTo: min(remaining, pollInterval), on: clock)
        }
    }

    /// The value at the last position of the run `workflowKey` that published `key`, or `nil`.
    private func latestEvent<T: Decodable>(of workflowKey: String, key: String, as type: T.Type) async throws -> T? {
        let children = WorkflowRecord.children(try await journal.records(parentKey: workflowKey), of: workflowKey)
        let published = children.filter { _, record in
            record.entry.kind == WorkflowRecord.eventKind && record.entry.payload == Array(key.utf8)
                && record.status == .done
        }
        guard let latest = published.max(by: { $0.key < $1.key })?.value else { return nil }
        do {
            return try StepOutput.decode(T.self, from: latest.output ?? [], key: latest.id)
        } catch {
            throw WorkflowError.undecodable(key: workflowKey, reason: "the event '\(key)': \(error)")
        }
    }
}
