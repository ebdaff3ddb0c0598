import BehaviorKitSync

extension WorkflowContext {
    /// Publishes `value` as the run's event `key`, for callers that wait for it with
    /// ``Workflows/event(of:key:as:timeout:)`` (a request handler waiting for "payment page
    /// ready"): the latest value published under a key is the one they read, as with DBOS's
    /// `set_event`. Written down at the run's next position, once: a run taken up again does
    /// not publish again. Callers waiting in this process are woken at once.
    ///
    /// ```swift
    /// let page = try await context.step("payment page") { _ in try await payments.page(for: order) }
    /// try await context.publish(page.url, as: "payment-page")
    /// ```
    ///
    /// - Throws: ``WorkflowError/nondeterministic(key:position:recorded:requested:)`` when the
    ///   journal recorded something else at this position; ``WorkflowError/undecodable(key:reason:)``
    ///   when `value` does not encode.
    public func publish<T: Encodable & Sendable>(_ value: T, as key: String) async throws {
        let position = try next()
        if let record = recorded[position] {
            try check(record, kind: WorkflowRecord.eventKind, name: key, at: position)
            return
        }
        let output: [UInt8]
        do {
            output = try StepOutput.encode(value, key: WorkflowRecord.childKey(self.key, position))
        } catch {
            throw stop(WorkflowError.undecodable(key: self.key, reason: "the event '\(key)': \(error)"))
        }
        let entry = entry(position, kind: WorkflowRecord.eventKind, name: key)
        let changes = changes(with: .settle(entry, as: .done(output: output)))
        try await journaled { try await journal.settle(changes, lease: lease) }
        engine.publications.signal()
    }
}
